// Blackjack-v1, matching gymnasium 1.4.0's BlackjackEnv (options natural,
// sab). The env writes the observation (player sum, dealer's showing card,
// usable ace) as one int64 array of 3 values; the gymnasium front end shows it
// as gymnasium's Tuple(Discrete(32), Discrete(11), Discrete(2)), the dm_env one
// keeps the array (docs/toy_text.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/env.h"
#include "core/errors.h"
#include "envs/toy_text/grid.h"

namespace envpool_x {

// A hand never holds more cards: the player busts by the 22nd (every card is
// worth at least 1) and the dealer stops drawing at a raw sum of 17.
constexpr int kBlackjackMaxCards = 22;

struct BlackjackHand {
  int8_t cards[kBlackjackMaxCards];
  int count;
};

// An infinite deck: 1 (ace) to 9 once each, 10 four times (10, J, Q, K).
ENVPOOL_X_HD inline int BlackjackDrawCard(Rng& rng) {
  const int k = static_cast<int>(rng.UniformInt(13)) + 1;
  return k < 10 ? k : 10;
}

ENVPOOL_X_HD inline int BlackjackRawSum(const BlackjackHand& h) {
  int sum = 0;
  for (int i = 0; i < h.count; ++i) sum += h.cards[i];
  return sum;
}

// An ace that can count 11 without busting the hand.
ENVPOOL_X_HD inline bool BlackjackUsableAce(const BlackjackHand& h) {
  bool ace = false;
  for (int i = 0; i < h.count; ++i) ace = ace || h.cards[i] == 1;
  return ace && BlackjackRawSum(h) + 10 <= 21;
}

ENVPOOL_X_HD inline int BlackjackSum(const BlackjackHand& h) {
  return BlackjackRawSum(h) + (BlackjackUsableAce(h) ? 10 : 0);
}

// 0 when bust, else the sum.
ENVPOOL_X_HD inline int BlackjackScore(const BlackjackHand& h) {
  const int sum = BlackjackSum(h);
  return sum > 21 ? 0 : sum;
}

// An ace and a ten-valued card, and nothing else.
ENVPOOL_X_HD inline bool BlackjackNatural(const BlackjackHand& h) {
  return h.count == 2 && h.cards[0] + h.cards[1] == 11 && (h.cards[0] == 1 || h.cards[1] == 1);
}

ENVPOOL_X_HD inline void BlackjackAddCard(BlackjackHand& h, Rng& rng) {
  h.cards[h.count++] = static_cast<int8_t>(BlackjackDrawCard(rng));
}

// Hit (1): draw; bust ends the episode with -1. Stick (0): the dealer draws
// to 17 or more, then the higher score wins (+1 / -1, 0 on a tie). With
// `sab` (Sutton and Barto) a natural beats any dealer hand but a natural; else
// with `natural` a winning natural pays 1.5.
ENVPOOL_X_HD inline void BlackjackDynamics(BlackjackHand& player, BlackjackHand& dealer, int action,
                                           bool natural, bool sab, Rng& rng, double* reward,
                                           bool* terminated) {
  if (action == 1) {
    BlackjackAddCard(player, rng);
    *terminated = BlackjackSum(player) > 21;
    *reward = *terminated ? -1.0 : 0.0;
    return;
  }
  *terminated = true;
  while (BlackjackSum(dealer) < 17) BlackjackAddCard(dealer, rng);
  const int p = BlackjackScore(player);
  const int d = BlackjackScore(dealer);
  *reward = p > d ? 1.0 : p < d ? -1.0 : 0.0;
  if (sab) {
    if (BlackjackNatural(player) && !BlackjackNatural(dealer)) *reward = 1.0;
  } else if (natural && BlackjackNatural(player) && *reward == 1.0) {
    *reward = 1.5;
  }
}

class Blackjack {
 public:
  static constexpr const char* kName = "Blackjack";
  static constexpr bool kCheap = true;

  static Config DefaultConfig() { return Config{{"natural", false}, {"sab", false}}; }

  static EnvSpec Spec(const Config& config) {
    EnvSpec spec;
    // Player sum (up to 31: a hit on 21), dealer's card (1-10), usable ace.
    spec.obs.push_back(ArraySpec{"obs", DType::kInt64, {3}, {0.0}, {31.0, 10.0, 1.0}, true});
    spec.action.discrete = true;
    spec.action.n = 2;
    spec.reward_low = -1.0;
    spec.reward_high = config.Bool("natural") && !config.Bool("sab") ? 1.5 : 1.0;
    return spec;
  }

  Blackjack(const Config& config, const EnvSpec& spec)
      : obs_(ObsField<int64_t>(spec, "obs")),
        natural_(config.Bool("natural")),
        sab_(config.Bool("sab")) {}

  void Reset(Rng& rng, const StepOutput& out) {
    dealer_.count = 0;
    player_.count = 0;
    BlackjackAddCard(dealer_, rng);
    BlackjackAddCard(dealer_, rng);
    BlackjackAddCard(player_, rng);
    BlackjackAddCard(player_, rng);
    Write(out);
  }

  void Step(const void* action, Rng& rng, const StepOutput& out) {
    double reward = 0.0;
    BlackjackDynamics(player_, dealer_, DiscreteAction(action), natural_, sab_, rng, &reward,
                      out.terminated);
    *out.reward = static_cast<float>(reward);
    Write(out);
  }

  // [number of player cards, player cards..., dealer cards...]
  std::vector<double> GetState() const {
    std::vector<double> s{static_cast<double>(player_.count)};
    for (int i = 0; i < player_.count; ++i) s.push_back(player_.cards[i]);
    for (int i = 0; i < dealer_.count; ++i) s.push_back(dealer_.cards[i]);
    return s;
  }

  void SetState(const std::vector<double>& s) {
    const char* layout = "[n, player cards (n), dealer cards]";
    if (s.empty()) throw ValueError(std::string("Blackjack state must be ") + layout);
    // At most 21 cards each, so that a hit or the dealer's draws still fit.
    const int n = static_cast<int>(StateInt(s, 0, 1, kBlackjackMaxCards - 1, "Blackjack n"));
    const int m = static_cast<int>(s.size()) - 1 - n;
    if (m < 1 || m > kBlackjackMaxCards - 1) {
      throw ValueError(std::string("Blackjack state must be ") + layout +
                       " with 1 to 21 cards per hand, got " + std::to_string(s.size()) +
                       " values for n=" + std::to_string(n));
    }
    BlackjackHand player{}, dealer{};
    for (int i = 0; i < n; ++i) player.cards[i] = StateInt(s, 1 + i, 1, 10, "a Blackjack card");
    for (int i = 0; i < m; ++i) dealer.cards[i] = StateInt(s, 1 + n + i, 1, 10, "a Blackjack card");
    player.count = n;
    dealer.count = m;
    player_ = player;
    dealer_ = dealer;
  }

 private:
  void Write(const StepOutput& out) const {
    int64_t* obs = out[obs_];
    obs[0] = BlackjackSum(player_);
    obs[1] = dealer_.cards[0];
    obs[2] = BlackjackUsableAce(player_) ? 1 : 0;
  }

  OutputField<int64_t> obs_;
  bool natural_ = false;
  bool sab_ = false;
  BlackjackHand player_{};
  BlackjackHand dealer_{};
};

}  // namespace envpool_x
