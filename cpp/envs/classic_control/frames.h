// The classic-control frames (render_mode="rgb_array"): gymnasium 1.4's
// pictures, drawn with render.h FROM AN ENV'S STATE VECTOR (what the env's
// GetState() returns), so that the GPU path can render a state it copied to
// the host. Same geometry and colours as gymnasium's render(), not
// pixel-exact (no anti-aliasing).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "envs/classic_control/acrobot.h"
#include "envs/classic_control/cartpole.h"
#include "envs/classic_control/mountain_car.h"
#include "envs/classic_control/mountain_car_continuous.h"
#include "envs/classic_control/pendulum.h"
#include "envs/classic_control/render.h"

namespace envpool_x {

namespace frame_detail {
constexpr raster::Rgb kWhite{255, 255, 255};
constexpr raster::Rgb kBlack{0, 0, 0};

// pygame's gfxdraw.filled_circle(x, y, r) at integer pixel (x, y): 2r + 1
// pixels across.
inline void GfxCircle(raster::Canvas& c, int x, int y, int r, raster::Rgb colour) {
  raster::FillCircle(c, x + 0.5, y + 0.5, r + 0.5, colour);
}

// The corners of a rectangle (l, b) (l, t) (r, t) (r, b), rotated by `angle`
// and moved by (dx, dy): how gymnasium places every bar.
inline std::vector<raster::Point> Box(double l, double r, double t, double b, double angle,
                                      double dx, double dy) {
  std::vector<raster::Point> pts{{l, b}, {l, t}, {r, t}, {r, b}};
  for (raster::Point& p : pts) {
    p = raster::Rotate(p, angle);
    p.x += dx;
    p.y += dy;
  }
  return pts;
}
}  // namespace frame_detail

// CartPole, 600 x 400; state [x, x_dot, theta, theta_dot].
inline raster::Canvas CartPoleFrame(const double* state) {
  using namespace frame_detail;
  const CartPoleParams<double> p;
  const int width = 600;
  raster::Canvas c(width, 400, kWhite);
  const double scale = width / (p.x_threshold * 2);
  const double polewidth = 10.0;
  const double polelen = scale * (2 * p.length);
  const double cartwidth = 50.0, cartheight = 30.0;
  const double axleoffset = cartheight / 4.0;
  const double cartx = state[0] * scale + width / 2.0;  // middle of the cart
  const double carty = 100;                             // top of the cart
  raster::FillPolygon(
      c, Box(-cartwidth / 2, cartwidth / 2, cartheight / 2, -cartheight / 2, 0.0, cartx, carty),
      kBlack);
  raster::FillPolygon(c,
                      Box(-polewidth / 2, polewidth / 2, polelen - polewidth / 2, -polewidth / 2,
                          -state[2], cartx, carty + axleoffset),
                      raster::Rgb{202, 152, 101});
  GfxCircle(c, static_cast<int>(cartx), static_cast<int>(carty + axleoffset),
            static_cast<int>(polewidth / 2), raster::Rgb{129, 132, 203});
  c.Span(static_cast<int>(carty), 0, width, kBlack);
  c.FlipVertical();
  return c;
}

// Pendulum, 500 x 500; state [th, thdot]. gymnasium also draws an arrow
// scaled by the last action (assets/clockwise.png); we do not keep the last
// action, so the frame has no arrow (as gymnasium's frame right after reset).
inline raster::Canvas PendulumFrame(const double* state) {
  using namespace frame_detail;
  const int dim = 500;
  raster::Canvas c(dim, dim, kWhite);
  const double bound = 2.2;
  const double scale = dim / (bound * 2);
  const int offset = dim / 2;
  const double rod_length = 1 * scale;
  const double rod_width = 0.2 * scale;
  const raster::Rgb red{204, 77, 77};
  const double angle = state[0] + kPi / 2;
  raster::FillPolygon(c, Box(0, rod_length, rod_width / 2, -rod_width / 2, angle, offset, offset),
                      red);
  GfxCircle(c, offset, offset, static_cast<int>(rod_width / 2), red);
  const raster::Point end = raster::Rotate({rod_length, 0}, angle);
  GfxCircle(c, static_cast<int>(end.x + offset), static_cast<int>(end.y + offset),
            static_cast<int>(rod_width / 2), red);
  GfxCircle(c, offset, offset, static_cast<int>(0.05 * scale), kBlack);  // the axle
  c.FlipVertical();
  return c;
}

// MountainCar and MountainCarContinuous, 600 x 400; state [position,
// velocity]; the flag stands at `goal_position` (0.5 and 0.45 in gymnasium).
inline raster::Canvas MountainCarFrame(const double* state, double goal_position) {
  using namespace frame_detail;
  const MountainCarParams<double> p;  // both envs share the track's ends
  const int width = 600;
  raster::Canvas c(width, 400, kWhite);
  const double scale = width / (p.max_position - p.min_position);
  const double carwidth = 40, carheight = 20;
  const double clearance = 10;
  auto height = [](double x) { return std::sin(3 * x) * 0.45 + 0.55; };
  std::vector<raster::Point> track;
  for (int i = 0; i < 100; ++i) {
    const double x = p.min_position + (p.max_position - p.min_position) * i / 99.0;
    track.push_back({(x - p.min_position) * scale, height(x) * scale});
  }
  raster::Polyline(c, track, 2.0, kBlack);

  const double pos = state[0];
  const double angle = std::cos(3 * pos);
  const double base_x = (pos - p.min_position) * scale;
  const double base_y = clearance + height(pos) * scale;
  raster::FillPolygon(c, Box(-carwidth / 2, carwidth / 2, carheight, 0, angle, base_x, base_y),
                      kBlack);
  for (double wx : {carwidth / 4, -carwidth / 4}) {
    const raster::Point w = raster::Rotate({wx, 0}, angle);
    GfxCircle(c, static_cast<int>(w.x + base_x), static_cast<int>(w.y + base_y),
              static_cast<int>(carheight / 2.5), raster::Rgb{128, 128, 128});
  }

  const int flagx = static_cast<int>((goal_position - p.min_position) * scale);
  const int flagy1 = static_cast<int>(height(goal_position) * scale);
  const int flagy2 = flagy1 + 50;
  for (int y = flagy1; y <= flagy2; ++y) c.Span(y, flagx, flagx, kBlack);
  raster::FillPolygon(c,
                      {{flagx + 0.5, flagy2 + 0.5},
                       {flagx + 0.5, flagy2 - 10 + 0.5},
                       {flagx + 25 + 0.5, flagy2 - 5 + 0.5}},
                      raster::Rgb{204, 204, 0});
  c.FlipVertical();
  return c;
}

// Acrobot, 500 x 500; state [theta1, theta2, dtheta1, dtheta2].
inline raster::Canvas AcrobotFrame(const double* state) {
  using namespace frame_detail;
  const AcrobotParams<double> p;
  const double link_length_2 = 1.0;  // gymnasium's LINK_LENGTH_2
  const int dim = 500;
  raster::Canvas c(dim, dim, kWhite);
  const double bound = p.link_length_1 + link_length_2 + 0.2;
  const double scale = dim / (bound * 2);
  const double offset = dim / 2.0;
  // The first joint at the origin, the second at the end of the first link.
  const raster::Point joints[2] = {{0.0, 0.0},
                                   {p.link_length_1 * std::sin(state[0]) * scale,
                                    -p.link_length_1 * std::cos(state[0]) * scale}};
  const double thetas[2] = {state[0] - kPi / 2, state[0] + state[1] - kPi / 2};
  const double lengths[2] = {p.link_length_1 * scale, link_length_2 * scale};
  raster::ThickLine(c, {-2.2 * scale + offset, 1 * scale + offset},
                    {2.2 * scale + offset, 1 * scale + offset}, 1.0, kBlack);
  for (int i = 0; i < 2; ++i) {
    const double x = joints[i].x + offset;
    const double y = joints[i].y + offset;
    raster::FillPolygon(c, Box(0, lengths[i], 0.1 * scale, -0.1 * scale, thetas[i], x, y),
                        raster::Rgb{0, 204, 204});
    GfxCircle(c, static_cast<int>(x), static_cast<int>(y), static_cast<int>(0.1 * scale),
              raster::Rgb{204, 204, 0});
  }
  c.FlipVertical();
  return c;
}

// What a pool's frame needs: its state length and its layout (for errors).
struct ClassicFrameKind {
  const char* pool_name;
  size_t state_size;
  const char* layout;
};

inline const ClassicFrameKind* FindClassicFrameKind(const std::string& pool_name) {
  static const ClassicFrameKind kinds[] = {
      {"CartPole", 4, "[x, x_dot, theta, theta_dot]"},
      {"Pendulum", 2, "[th, thdot]"},
      {"MountainCar", 2, "[position, velocity]"},
      {"MountainCarContinuous", 2, "[position, velocity]"},
      {"Acrobot", 4, "[theta1, theta2, dtheta1, dtheta2]"},
  };
  for (const ClassicFrameKind& k : kinds) {
    if (pool_name == k.pool_name) return &k;
  }
  return nullptr;
}

// The frame of pool `pool_name` (a name FindClassicFrameKind knows) for a
// state of the right length; `goal_position` NaN means the env's default.
inline raster::Canvas ClassicFrame(const std::string& pool_name, const std::vector<double>& state,
                                   double goal_position) {
  const double* s = state.data();
  if (pool_name == "CartPole") return CartPoleFrame(s);
  if (pool_name == "Pendulum") return PendulumFrame(s);
  if (pool_name == "Acrobot") return AcrobotFrame(s);
  if (std::isnan(goal_position)) {
    goal_position = pool_name == "MountainCar"
                        ? MountainCarParams<double>{}.goal_position
                        : MountainCarContinuousParams<double>{}.goal_position;
  }
  return MountainCarFrame(s, goal_position);
}

}  // namespace envpool_x
