"""Frames of envs (render_mode="rgb_array"): one module per way of drawing them."""
