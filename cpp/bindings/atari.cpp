// Atari pools (built with ENVPOOL_X_ATARI): one pool class for every game;
// the game is the "task" key and its ROM the "rom_path" key.
#include "envs/atari/atari.h"

#include <chrono>

#include "bindings/pool_binding.h"

namespace envpool_x {

void BindAtari(py::module_& m) {
  BindEnv<Atari>(m);
  // The ROMs the ale-py sdist ships (listed at configure time) that this
  // ALE has game settings for: ale-py also ships a few multi-player ROMs
  // (combat, joust, ...) that ALE cannot load.
  m.def(
      "atari_rom_ids",
      [] {
        static const char* const kIds[] = {
#include "atari_rom_ids.inc"
        };
        std::vector<std::string> ids;
        for (const char* id : kIds) {
          std::unique_ptr<ale::RomSettings> game(
              ale::buildRomRLWrapper(std::string(id) + ".bin", ""));
          if (game) ids.emplace_back(id);
        }
        return ids;
      },
      "ROM ids (such as 'pong') of the games the ALE this module was built with supports.");
  m.attr("ale_version") = ENVPOOL_X_ALE_VERSION;
  // Emulation alone, with this module's ALE build and the env's ALE settings
  // (sticky actions 0): the benchmarks' measure of what the preprocessing
  // (max-pool, palette, resize, stack) adds on top of act().
  m.def(
      "atari_act_loop",
      [](const std::string& rom_path, const std::string& task, int64_t steps, int frame_skip) {
        if (steps < 0 || frame_skip < 1) {
          throw ValueError("steps must be >= 0 and frame_skip >= 1");
        }
        atari_detail::QuietAle();
        ale::ALEInterface ale;
        ale.setFloat("repeat_action_probability", 0.0f);
        ale.setInt("random_seed", 0);
        atari_detail::LoadRom(ale, rom_path, task);
        const ale::ActionVect actions = ale.getMinimalActionSet();
        // The raw loop's actions (RawLoopSeconds), so both do the same game.
        const std::vector<int32_t> picks =
            RawLoopDiscreteActions(static_cast<int64_t>(actions.size()), 0);
        py::gil_scoped_release nogil;
        auto t0 = std::chrono::steady_clock::now();
        for (int64_t i = 0; i < steps; ++i) {
          const ale::Action a = actions[picks[i % kRawLoopActions]];
          for (int f = 0; f < frame_skip; ++f) ale.act(a);
          if (ale.game_over()) ale.reset_game();
        }
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      },
      py::arg("rom_path"), py::arg("task"), py::arg("steps"), py::arg("frame_skip") = 4,
      "Seconds one thread takes for `steps` env steps of ALE act() alone (frame_skip frames "
      "each, no preprocessing) with this module's ALE build.");
}

}  // namespace envpool_x
