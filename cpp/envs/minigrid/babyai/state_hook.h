// BabyAIEnv's test hook: the MiniGrid state layout (minigrid_env.h: header,
// grid) followed by the place of PutNext's start-carried object (-1, -1 if
// none) and the instruction, kMaxNodes nodes of kNodeValues values: kind,
// strict, child a, child b, then type, colour and location of the
// description and of put-next's fixed one (-1: any / none; unused nodes have
// kind 0). Loading one starts an episode there: the verifier is reset, as
// minigrid resets it after drawing the layout.
#pragma once

#include <string>
#include <vector>

#include "envs/minigrid/babyai/babyai_env.h"

namespace envpool_x::minigrid::babyai {

inline std::vector<double> BabyAIEnv::GetState() const {
  const Grid& g = world_.grid;
  auto cell = [](std::vector<double>* s, const Cell& c) {
    s->insert(s->end(), {static_cast<double>(c.type), static_cast<double>(c.color),
                         static_cast<double>(c.state), static_cast<double>(c.inner_type),
                         static_cast<double>(c.inner_color)});
  };
  std::vector<double> s = {static_cast<double>(g.width()),
                           static_cast<double>(g.height()),
                           static_cast<double>(world_.agent.x),
                           static_cast<double>(world_.agent.y),
                           static_cast<double>(world_.dir),
                           static_cast<double>(world_.step_count),
                           -1.0};
  cell(&s, world_.carrying);
  for (int y = 0; y < g.height(); ++y) {
    for (int x = 0; x < g.width(); ++x) cell(&s, g.Get(x, y));
  }
  s.push_back(carry_from_.x);
  s.push_back(carry_from_.y);
  const std::vector<Instr>& nodes = level_.instr.nodes;
  for (int k = 0; k < kMaxNodes; ++k) {
    if (k >= static_cast<int>(nodes.size())) {
      s.insert(s.end(), kNodeValues, 0.0);
      continue;
    }
    const Instr& n = nodes[k];
    s.insert(s.end(), {static_cast<double>(n.kind), n.strict ? 1.0 : 0.0, static_cast<double>(n.a),
                       static_cast<double>(n.b)});
    for (const ObjDesc* d : {&n.desc, &n.fixed}) {
      s.insert(s.end(), {d->type == kEmpty ? -1.0 : static_cast<double>(d->type),
                         static_cast<double>(d->color), static_cast<double>(d->loc)});
    }
  }
  return s;
}

inline void BabyAIEnv::SetState(const std::vector<double>& s) {
  const int w = world_.grid.width(), h = world_.grid.height();
  const size_t grid_end = kStateHeader + static_cast<size_t>(w) * h * 5;
  if (s.size() != grid_end + kNumExtra || s[0] != w || s[1] != h) {
    throw ValueError("BabyAI state must hold " + std::to_string(grid_end + kNumExtra) +
                     " values for a " + std::to_string(w) + "x" + std::to_string(h) +
                     " grid, got " + std::to_string(s.size()));
  }
  auto bad = [](const std::string& what) { return ValueError("BabyAI state: bad " + what); };
  const Pos agent{static_cast<int>(s[2]), static_cast<int>(s[3])};
  if (!world_.grid.Inside(agent.x, agent.y) || !(s[4] >= 0 && s[4] < 4) || s[5] < 0) {
    throw bad("agent position, direction or step count");
  }
  world_.agent = agent;
  world_.dir = static_cast<int>(s[4]);
  world_.step_count = static_cast<int>(s[5]);
  world_.carrying = CellFromCodes(s[7], s[8], s[9], s[10], s[11]);
  const double* c = s.data() + kStateHeader;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x, c += 5)
      world_.grid.Set(x, y, CellFromCodes(c[0], c[1], c[2], c[3], c[4]));
  }
  carry_from_ = Pos{static_cast<int>(c[0]), static_cast<int>(c[1])};
  if (carry_from_.x >= 0 &&
      (!world_.grid.Inside(carry_from_.x, carry_from_.y) || world_.carrying.IsNone() ||
       !world_.grid.Get(carry_from_.x, carry_from_.y).IsNone())) {
    throw bad("start-carried object's place");
  }
  c += 2;
  Instruction& instr = level_.instr;
  instr.Clear();
  auto code = [&](double v, int lo, int hi, const char* what) {
    if (!(v >= lo && v < hi) || static_cast<int>(v) != v) throw bad(what);
    return static_cast<int>(v);
  };
  auto desc = [&](const double* v) {
    const int type = code(v[0], -1, kNumObjTypes, "object type");
    return Level::Desc(type < 0 ? kEmpty : type, code(v[1], -1, kNumColors, "colour"),
                       code(v[2], -1, kNumLocs, "location"));
  };
  for (int k = 0; k < kMaxNodes; ++k, c += kNodeValues) {
    const int kind = code(c[0], 0, kAfterInstr + 1, "instruction kind");
    if (kind == kNoInstr) break;
    Instr n;
    n.kind = kind;
    n.strict = c[1] != 0;
    n.a = code(c[2], -1, kMaxNodes, "child");
    n.b = code(c[3], -1, kMaxNodes, "child");
    n.desc = desc(c + 4);
    n.fixed = desc(c + 7);
    instr.Add(n);
  }
  if (instr.nodes.empty()) throw bad("instruction (no nodes)");
  // A tree: every node reached once from the root, children inside the list.
  std::vector<int> seen(instr.nodes.size(), 0), todo = {0};
  while (!todo.empty()) {
    const int k = todo.back();
    todo.pop_back();
    if (k < 0 || k >= static_cast<int>(seen.size()) || seen[k]++) throw bad("instruction tree");
    if (!instr.nodes[k].IsAction()) todo.insert(todo.end(), {instr.nodes[k].a, instr.nodes[k].b});
  }
  // The verifier sees the start-carried object where it was drawn.
  if (carry_from_.x >= 0) {
    world_.grid.Set(carry_from_.x, carry_from_.y, world_.carrying);
    world_.carrying = Cell{};
  }
  level_.table.Assign(world_);
  StartEpisode();
}

}  // namespace envpool_x::minigrid::babyai
