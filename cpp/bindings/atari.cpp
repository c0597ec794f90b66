// Atari pools (built with ENVPOOL_X_ATARI): one pool class for every game;
// the game is the "task" key and its ROM the "rom_path" key.
#include "envs/atari/atari.h"

#include "bindings/pool_binding.h"

namespace envpool_x {

void BindAtari(py::module_& m) {
  BindEnv<Atari>(m, "Atari");
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
}

}  // namespace envpool_x
