// Box2D 2.3's process-wide state, made safe for envs built and stepped on
// several threads.
//
// b2Contact fills its table of contact kinds (s_registers) the first time any
// world creates a contact, with no lock: two pools' worker threads could fill
// it at once. EnsureBox2DReady fills it once, under C++'s thread-safe static
// initialisation, before any env exists. (Box2D's other globals are
// statistics counters, b2_gjkCalls, b2_toiCalls and the like, which it
// increments and never reads back; they do not touch results.)
#pragma once

#include <Box2D/Box2D.h>

namespace envpool_x::box2d {

inline bool FillContactTable() {
  b2World world(b2Vec2(0.0f, -10.0f));
  b2BodyDef ground_def;
  b2Body* ground = world.CreateBody(&ground_def);
  b2EdgeShape edge;
  edge.Set(b2Vec2(-1.0f, 0.0f), b2Vec2(1.0f, 0.0f));
  ground->CreateFixture(&edge, 0.0f);
  b2BodyDef box_def;
  box_def.type = b2_dynamicBody;
  box_def.position.Set(0.0f, 0.05f);
  b2Body* box = world.CreateBody(&box_def);
  b2PolygonShape shape;
  shape.SetAsBox(0.1f, 0.1f);
  box->CreateFixture(&shape, 1.0f);
  world.Step(0.02f, 1, 1);  // the overlapping pair creates the first contact
  return world.GetContactCount() > 0;
}

inline void EnsureBox2DReady() {
  static const bool ready = FillContactTable();
  (void)ready;
}

}  // namespace envpool_x::box2d
