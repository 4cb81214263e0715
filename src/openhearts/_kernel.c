/* The compiled playout kernel: one deal's play phase on 52-bit card masks.
 *
 * This file mirrors the pure-Python reference bit for bit:
 *   legal_mask / play_card / scoring   <->  openhearts/deal.py (DealState)
 *   the "easy" policy                  <->  openhearts/bots/policy.py (play_policy)
 *   the search playout                 <->  openhearts/bots/hard.py (playout)
 *   the random stream                  <->  openhearts/prng.py (SplitMix64)
 * Change one side only together with the other; tests/test_kernel.py compares them on
 * many random positions of every preset and player count.
 *
 * Card numbers are suit * 13 + rank (clubs 0-12, diamonds 13-25, spades 26-38, hearts
 * 39-51).  Python code reaches this module only through openhearts/kernel.py, which
 * packs a DealState into the plain tuples read here (see parse_rules, parse_position).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t mask_t;

#define MAX_PLAYERS 6
#define SUIT(s) ((mask_t)0x1FFF << (13 * (s)))
#define HEARTS SUIT(3)
#define SPADES SUIT(2)
#define QS 36
#define JD 22
#define QS_BIT ((mask_t)1 << QS)
#define JD_BIT ((mask_t)1 << JD)
#define HIGH_SPADES (((mask_t)1 << (QS + 1)) | ((mask_t)1 << (QS + 2)))
#define POINT_CARDS (HEARTS | QS_BIT)
#define DECK (((mask_t)1 << 52) - 1)

enum { MOON_OTHERS_ADD = 0, MOON_SHOOTER_SUBTRACTS = 1, MOON_SHOOTER_CHOOSES = 2, MOON_NONE = 3 };
enum { PHASE_PLAYING = 0, PHASE_MOON_CHOICE = 1, PHASE_DONE = 2 };
enum { SHOT_NONE = 0, SHOT_MOON = 1, SHOT_SUN = 2 };
enum { POLICY_RANDOM = 0, POLICY_EASY = 1 };

typedef struct {
    int players, hand_size, first_lead, lead_restricted, points_in_play, sun, moon, jack;
    mask_t first_trick_bar, first_trick_fallback, break_mask, point_mask;
} rules_t;

typedef struct {
    mask_t hands[MAX_PLAYERS], taken[MAX_PLAYERS], played;
    int tricks_won[MAX_PLAYERS], trick[MAX_PLAYERS], points[MAX_PLAYERS];
    int trick_len, leader, to_move, hearts_broken, in_first_trick, phase, shooter, shot;
} position_t;

static inline int high_card(mask_t mask) { return mask ? 63 - __builtin_clzll(mask) : -1; }
static inline int low_card(mask_t mask) { return mask ? __builtin_ctzll(mask) : -1; }
static inline int count(mask_t mask) { return __builtin_popcountll(mask); }
static inline mask_t or_else(mask_t mask, mask_t fallback) { return mask ? mask : fallback; }
static inline mask_t below(int card) { return (((mask_t)1 << card) - 1) & SUIT(card / 13); }
static inline mask_t above(int card) { return SUIT(card / 13) & ~(((mask_t)2 << card) - 1); }

/* SplitMix64 (openhearts/prng.py): one 64-bit word per draw. */
static inline uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Rules: DealState.legal_mask, play_card, _score ---------------------------------------- */

static mask_t legal_mask(const rules_t *rules, const position_t *pos) {
    mask_t hand = pos->hands[pos->to_move], candidates;
    if (pos->trick_len) {
        candidates = or_else(hand & SUIT(pos->trick[0] / 13), hand);
    } else if (pos->played == 0) {
        return (mask_t)1 << rules->first_lead;
    } else if (rules->lead_restricted && !pos->hearts_broken) {
        return or_else(hand & ~HEARTS, hand);
    } else {
        return hand;
    }
    if (!pos->in_first_trick || !rules->first_trick_bar) return candidates;
    mask_t allowed = candidates & ~rules->first_trick_bar;
    if (allowed) return allowed;
    return or_else(candidates & rules->first_trick_fallback, candidates);
}

static void with_jack(const rules_t *rules, position_t *pos) {
    if (!rules->jack) return;
    for (int seat = 0; seat < rules->players; seat++)
        if (pos->taken[seat] & JD_BIT) pos->points[seat] -= 10;
}

static void score_moon(const rules_t *rules, position_t *pos, int others_add) {
    int total = rules->points_in_play;
    for (int seat = 0; seat < rules->players; seat++) {
        if (others_add) pos->points[seat] = seat == pos->shooter ? 0 : total;
        else pos->points[seat] = seat == pos->shooter ? -total : 0;
    }
    with_jack(rules, pos);
    pos->phase = PHASE_DONE;
}

static void score(const rules_t *rules, position_t *pos) {
    int players = rules->players;
    pos->phase = PHASE_DONE;
    if (rules->sun) {
        for (int seat = 0; seat < players; seat++) {
            if (pos->tricks_won[seat] == rules->hand_size) {
                pos->shooter = seat;
                pos->shot = SHOT_SUN;
                for (int s = 0; s < players; s++)
                    pos->points[s] = s == seat ? -rules->points_in_play : rules->points_in_play;
                with_jack(rules, pos);
                return;
            }
        }
    }
    mask_t point_mask = rules->point_mask;
    if (rules->moon != MOON_NONE && point_mask) {
        for (int seat = 0; seat < players; seat++) {
            if ((pos->taken[seat] & point_mask) == point_mask) {
                pos->shooter = seat;
                pos->shot = SHOT_MOON;
                if (rules->moon == MOON_SHOOTER_CHOOSES) {
                    pos->phase = PHASE_MOON_CHOICE;
                    pos->to_move = seat;
                    return;
                }
                score_moon(rules, pos, rules->moon == MOON_OTHERS_ADD);
                return;
            }
        }
    }
    for (int seat = 0; seat < players; seat++) {
        mask_t taken = pos->taken[seat];
        int value = count(taken & HEARTS);
        if (taken & QS_BIT) value += 13;
        if (rules->jack && (taken & JD_BIT)) value -= 10;
        pos->points[seat] = value;
    }
}

static void play_card(const rules_t *rules, position_t *pos, int card) {
    mask_t bit = (mask_t)1 << card;
    int seat = pos->to_move, players = rules->players;
    pos->hands[seat] ^= bit;
    pos->played |= bit;
    pos->trick[pos->trick_len++] = card;
    if (!pos->hearts_broken && (bit & rules->break_mask)) pos->hearts_broken = 1;
    if (pos->trick_len < players) {
        pos->to_move = seat + 1 < players ? seat + 1 : 0;
        return;
    }
    mask_t mask = 0;
    for (int i = 0; i < players; i++) mask |= (mask_t)1 << pos->trick[i];
    int high = high_card(mask & SUIT(pos->trick[0] / 13)), index = 0;
    while (pos->trick[index] != high) index++;
    int winner = (pos->leader + index) % players;
    pos->taken[winner] |= mask;
    pos->tricks_won[winner]++;
    pos->in_first_trick = 0;
    pos->trick_len = 0;
    pos->leader = pos->to_move = winner;
    if (!pos->hands[winner]) score(rules, pos);
}

/* The easy policy: bots/policy.py, function for function ------------------------------- */

static int highest_rank(mask_t mask, mask_t avoid) {
    int best = -1, best_rank = -1, best_shortness = 0;
    for (int suit = 0; suit < 4; suit++) {
        mask_t cards = mask & SUIT(suit);
        if (!cards) continue;
        int card = high_card(or_else(cards & ~avoid, cards));
        int rank = card - suit * 13, shortness = -count(cards);
        if (rank > best_rank || (rank == best_rank && shortness > best_shortness)) {
            best_rank = rank;
            best_shortness = shortness;
            best = card;
        }
    }
    return best;
}

static int lowest_rank(mask_t mask) {
    int best = -1, best_rank = 99;
    for (int suit = 0; suit < 4; suit++) {
        mask_t cards = mask & SUIT(suit);
        if (!cards) continue;
        int card = low_card(cards);
        if (card % 13 < best_rank) {
            best_rank = card % 13;
            best = card;
        }
    }
    return best;
}

/* policy.moon_threat: the seat holding every point taken, when that is at least half of
 * the points in play, or at least `alarm` points when `alarm` is above 0. */
static int moon_threat(const mask_t *taken, int players, mask_t point_mask, int alarm) {
    int owner = -1;
    for (int seat = 0; seat < players; seat++) {
        if (taken[seat] & point_mask) {
            if (owner >= 0) return -1;
            owner = seat;
        }
    }
    if (owner < 0) return -1;
    mask_t mine = taken[owner] & point_mask;
    int value = count(mine & HEARTS) + (mine & QS_BIT ? 13 : 0);
    int total = count(point_mask & HEARTS) + (point_mask & QS_BIT ? 13 : 0);
    return (alarm > 0 ? value >= alarm : value * 2 >= total) ? owner : -1;
}

static int policy_shoot(mask_t hand, mask_t legal, const int *trick, int trick_len, mask_t gone) {
    if (!trick_len) {
        mask_t unseen = ~(gone | hand);
        for (int suit = 0; suit < 4; suit++) {
            mask_t cards = legal & SUIT(suit);
            if (cards && !(unseen & above(high_card(cards)))) return high_card(cards);
        }
        return high_card(or_else(legal & ~HEARTS, legal));
    }
    mask_t follow = legal & SUIT(trick[0] / 13);
    if (follow) return high_card(follow);
    return lowest_rank(or_else(legal & ~POINT_CARDS, legal));
}

static int policy_lead(mask_t hand, mask_t legal, mask_t gone) {
    mask_t unseen = ~(gone | hand);
    int queen_out = (unseen & QS_BIT) != 0;
    int best = -1, best_score = 1 << 30;
    for (int suit = 0; suit < 4; suit++) {
        mask_t cards = legal & SUIT(suit);
        if (!cards) continue;
        mask_t others = unseen & SUIT(suit);
        int low = low_card(cards), length = count(hand & SUIT(suit)), score_;
        if (suit == 2 && queen_out) {
            mask_t safe = cards & ~(QS_BIT | HIGH_SPADES);
            if ((hand & QS_BIT) || !safe) {
                score_ = 400 + low % 13;
            } else {
                low = low_card(safe);
                score_ = count(others & below(low)) * 10 - 15;
            }
        } else if (!others) {
            score_ = 300 + length;
        } else {
            int lower = count(others & below(low));
            score_ = lower * 10 + length;
            if (suit == 3) score_ += 20 + lower * 10;
        }
        if (score_ < best_score) {
            best_score = score_;
            best = low;
        }
    }
    return best >= 0 ? best : low_card(legal);
}

static int policy_follow(mask_t follow, const int *trick, int trick_len, int high, int has_points,
                         int players, mask_t gone, mask_t hand, int jack) {
    mask_t under = follow & below(high);
    int queen_out = !((gone | hand) & QS_BIT);
    if (trick_len == players - 1) {
        if (jack && (follow & JD_BIT) && high < JD) return JD;
        if (!has_points) return high_card(or_else(follow & ~QS_BIT, follow));
        if (under) return high_card(under);
        return high_card(or_else(follow & ~QS_BIT, follow));
    }
    if (under) return high_card(under);
    int spades_risk = trick[0] / 13 == 2 && queen_out;
    if (has_points || spades_risk) return low_card(or_else(follow & ~QS_BIT, follow));
    return high_card(or_else(follow & ~QS_BIT, follow));
}

static int policy_discard(mask_t legal, mask_t hand, mask_t gone, int jack) {
    if (legal & QS_BIT) return QS;
    mask_t keep = jack ? JD_BIT : 0;
    if (!((gone | hand) & QS_BIT)) {
        mask_t high_spades = legal & HIGH_SPADES;
        if (high_spades) return high_card(high_spades);
    }
    mask_t hearts = legal & HEARTS;
    if (hearts) return high_card(hearts);
    return highest_rank(or_else(legal & ~keep, legal), 0);
}

static int play_policy(int seat, mask_t hand, mask_t legal, const int *trick, int trick_len,
                       int leader, int players, mask_t gone, int threat, int jack) {
    if (threat == seat) return policy_shoot(hand, legal, trick, trick_len, gone);
    if (!trick_len) return policy_lead(hand, legal, gone);
    int led = trick[0] / 13;
    mask_t follow = legal & SUIT(led);
    int high = trick[0], winner_index = 0, has_points = 0;
    for (int i = 0; i < trick_len; i++) {
        int card = trick[i];
        if (card / 13 == led && card > high) {
            high = card;
            winner_index = i;
        }
        if ((POINT_CARDS >> card) & 1) has_points = 1;
    }
    if (threat >= 0) {
        int winner = (leader + winner_index) % players;
        if (follow) {
            if (winner == threat && has_points) {
                mask_t over = follow & above(high);
                if (over) return low_card(over);
            }
        } else if (winner == threat) {
            mask_t safe = legal & ~POINT_CARDS;
            if (safe) return highest_rank(safe, 0);
        } else {
            mask_t hearts = legal & HEARTS;
            if (hearts) return low_card(hearts);
        }
    }
    if (follow) return policy_follow(follow, trick, trick_len, high, has_points, players, gone,
                                     hand, jack);
    return policy_discard(legal, hand, gone, jack);
}

/* Playouts ----------------------------------------------------------------------------- */

/* hard.playout: the easy policy for every seat; with `shoot`, seat `root` plays for every
 * point while nobody else has taken one, and so does seat `rival` (-1: none) always.  The
 * moon threat is read when a trick is led
 * with a choice, as in the reference.  With `lookahead` (LOOKAHEAD_ROOT: seat `root`;
 * LOOKAHEAD_ALL: every seat), a looking seat tries each legal card instead and plays the
 * one whose plain playout to the end gives it the best margin (lookahead_card). */
enum { LOOKAHEAD_NONE = 0, LOOKAHEAD_ROOT = 1, LOOKAHEAD_ALL = 2 };

static void finish_moon(const rules_t *rules, position_t *pos, const int *add_for) {
    if (pos->phase == PHASE_MOON_CHOICE) score_moon(rules, pos, add_for[pos->shooter]);
}

/* How the seats play in a playout: the searching seat `root`, its moon plan (`shoot`),
 * another seat going for the moon (`rival`, -1: none), the moon alarm (moon_threat's
 * `alarm`), who looks ahead and how deep, and each seat's moon choice. */
typedef struct {
    int root, shoot, rival, alarm, lookahead, depth;
    const int *add_for;
} plan_t;

static int lookahead_card(const rules_t *rules, const position_t *pos, mask_t legal,
                          const plan_t *plan);

/* The moon plan of `shooter` holds while nobody else has taken a point: the seat it plays
 * as, a threat to itself, instead of `threat`. */
static int planned_threat(const position_t *pos, int players, mask_t point_mask, int shooter,
                          int threat) {
    if (threat != -1 && threat != shooter) return threat;
    for (int other = 0; other < players; other++) {
        if (other != shooter && (pos->taken[other] & point_mask)) return threat;
    }
    return shooter;
}

static void playout_easy(const rules_t *rules, position_t *pos, const plan_t *plan) {
    int players = rules->players, threat = -1, root = plan->root, look = plan->lookahead;
    mask_t point_mask = rules->point_mask;
    while (pos->phase == PHASE_PLAYING) {
        mask_t legal = legal_mask(rules, pos);
        int card;
        if (legal & (legal - 1)) {
            if (!pos->trick_len) threat = moon_threat(pos->taken, players, point_mask, plan->alarm);
            int seat = pos->to_move, seen = threat;
            if (look == LOOKAHEAD_ALL || (look == LOOKAHEAD_ROOT && seat == root)) {
                play_card(rules, pos, lookahead_card(rules, pos, legal, plan));
                continue;
            }
            if ((plan->shoot && seat == root) || seat == plan->rival)
                seen = planned_threat(pos, players, point_mask, seat, threat);
            card = play_policy(seat, pos->hands[seat], legal, pos->trick, pos->trick_len,
                               pos->leader, players, pos->played, seen, rules->jack);
        } else {
            card = high_card(legal);
        }
        play_card(rules, pos, card);
    }
}

/* hard.lookahead_card: the legal card (lowest on ties) after which a playout gives the seat
 * to move the lowest margin, as players * own points - everyone's points (the margin of
 * hard's objective times players - 1, in integers).  That playout looks ahead again, one
 * level less deep, down to the plain easy playout at depth 1. */
static int lookahead_card(const rules_t *rules, const position_t *pos, mask_t legal,
                          const plan_t *plan) {
    int seat = pos->to_move, players = rules->players, best = -1, best_value = 0;
    plan_t deeper = *plan;
    deeper.depth = plan->depth - 1;
    if (plan->depth <= 1) deeper.lookahead = LOOKAHEAD_NONE;
    for (mask_t rest = legal; rest; rest &= rest - 1) {
        int card = low_card(rest), total = 0;
        position_t next = *pos;
        play_card(rules, &next, card);
        playout_easy(rules, &next, &deeper);
        finish_moon(rules, &next, plan->add_for);
        for (int s = 0; s < players; s++) total += next.points[s];
        int value = players * next.points[seat] - total;
        if (best < 0 || value < best_value) {
            best = card;
            best_value = value;
        }
    }
    return best;
}

/* Uniformly random legal cards: a draw only where there is a choice, the k-th lowest
 * legal card for k = draw mod (number of legal cards). */
static void playout_random(const rules_t *rules, position_t *pos, uint64_t *stream) {
    while (pos->phase == PHASE_PLAYING) {
        mask_t legal = legal_mask(rules, pos);
        if (legal & (legal - 1)) {
            int k = (int)(next_random(stream) % (uint64_t)count(legal));
            while (k--) legal &= legal - 1;
        }
        play_card(rules, pos, low_card(legal));
    }
}

/* Python glue ---------------------------------------------------------------------------- */

static int read_masks(PyObject *seq, mask_t *out, int size, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != size) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d values", what, size);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < size; i++) {
        unsigned long long value =
            PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || value > DECK) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: not a card mask", what);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (mask_t)value;
    }
    Py_DECREF(fast);
    return 0;
}

static int read_ints(PyObject *seq, int *out, int min_size, int max_size, int low, int high,
                     const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size < min_size || size > max_size) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d to %d values", what, min_size, max_size);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || value < low || value > high) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%s: %ld is out of range", what, value);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return (int)size;
}

/* rules: (players, hand_size, first_lead, lead_restricted, points_in_play, sun, moon, jack,
 *         first_trick_bar, first_trick_fallback, break_mask, point_mask) */
static int parse_rules(PyObject *tuple, rules_t *rules) {
    if (!PyArg_ParseTuple(tuple, "iiipipipKKKK;rules: a packed rules tuple", &rules->players,
                          &rules->hand_size, &rules->first_lead, &rules->lead_restricted,
                          &rules->points_in_play, &rules->sun, &rules->moon, &rules->jack,
                          &rules->first_trick_bar, &rules->first_trick_fallback,
                          &rules->break_mask, &rules->point_mask))
        return -1;
    if (rules->players < 3 || rules->players > MAX_PLAYERS || rules->first_lead < 0 ||
        rules->first_lead > 51 || rules->moon < 0 || rules->moon > MOON_NONE) {
        PyErr_SetString(PyExc_ValueError, "rules: out of range");
        return -1;
    }
    return 0;
}

/* position: (hands, leader, trick, taken, tricks_won, played, hearts_broken), play phase */
static int parse_position(PyObject *tuple, const rules_t *rules, position_t *pos) {
    PyObject *hands, *trick, *taken, *won;
    unsigned long long played;
    memset(pos, 0, sizeof *pos);
    /* PyArg_ParseTuple on anything else is a SystemError, which reads as a bug of ours. */
    if (!PyTuple_Check(tuple)) {
        PyErr_Format(PyExc_TypeError, "position: a kernel.Position (a tuple), not %.100s",
                     Py_TYPE(tuple)->tp_name);
        return -1;
    }
    if (!PyArg_ParseTuple(tuple, "OiOOOKp;position: a packed position tuple", &hands,
                          &pos->leader, &trick, &taken, &won, &played, &pos->hearts_broken))
        return -1;
    int players = rules->players;
    if (pos->leader < 0 || pos->leader >= players) {
        PyErr_SetString(PyExc_ValueError, "position: no such leader");
        return -1;
    }
    if (read_masks(hands, pos->hands, players, "hands") < 0 ||
        read_masks(taken, pos->taken, players, "taken") < 0 ||
        read_ints(won, pos->tricks_won, players, players, 0, 52, "tricks_won") < 0)
        return -1;
    int length = read_ints(trick, pos->trick, 0, players - 1, 0, 51, "trick");
    if (length < 0) return -1;
    pos->trick_len = length;
    pos->played = (mask_t)played & DECK;
    if (!rules->lead_restricted) pos->hearts_broken = 1; /* as DealState.from_position */
    pos->to_move = (pos->leader + length) % players;
    pos->in_first_trick = count(pos->played) == length;
    pos->phase = PHASE_PLAYING;
    pos->shooter = -1;
    /* Every seat must run out of cards together at the end of a trick, or a playout
     * would reach a seat with nothing to play. */
    int size = count(pos->hands[pos->to_move]);
    for (int i = 0; i < players; i++) {
        int seat = (pos->leader + i) % players;
        if (size < 1 || count(pos->hands[seat]) != size - (i < length ? 1 : 0)) {
            PyErr_SetString(PyExc_ValueError,
                            "position: the hands' sizes do not fit the trick in progress");
            return -1;
        }
    }
    if (pos->played == 0 && !length &&
        !((pos->hands[pos->to_move] >> rules->first_lead) & 1)) {
        PyErr_SetString(PyExc_ValueError, "position: the leader lacks the first lead card");
        return -1;
    }
    return 0;
}

static int parse_add_for(PyObject *seq, const rules_t *rules, int *add_for) {
    if (seq == Py_None) {
        for (int i = 0; i < rules->players; i++) add_for[i] = 1;
        return 0;
    }
    return read_ints(seq, add_for, rules->players, rules->players, 0, 1, "add_for") < 0 ? -1
                                                                                        : 0;
}

static PyObject *points_tuple(const rules_t *rules, const position_t *pos) {
    PyObject *result = PyTuple_New(rules->players);
    if (!result) return NULL;
    for (int seat = 0; seat < rules->players; seat++) {
        PyObject *value = PyLong_FromLong(pos->points[seat]);
        if (!value) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, seat, value);
    }
    return result;
}

static PyObject *masks_tuple(const mask_t *masks, int size) {
    PyObject *result = PyTuple_New(size);
    if (!result) return NULL;
    for (int i = 0; i < size; i++) {
        PyObject *value = PyLong_FromUnsignedLongLong(masks[i]);
        if (!value) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, value);
    }
    return result;
}

static PyObject *ints_tuple(const int *values, int size) {
    PyObject *result = PyTuple_New(size);
    if (!result) return NULL;
    for (int i = 0; i < size; i++) {
        PyObject *value = PyLong_FromLong(values[i]);
        if (!value) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, value);
    }
    return result;
}

static PyObject *k_legal_mask(PyObject *self, PyObject *args) {
    PyObject *rules_obj, *pos_obj;
    rules_t rules;
    position_t pos;
    if (!PyArg_ParseTuple(args, "OO", &rules_obj, &pos_obj) || parse_rules(rules_obj, &rules) < 0 ||
        parse_position(pos_obj, &rules, &pos) < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(legal_mask(&rules, &pos));
}

/* play(rules, position, cards) -> (hands, leader, to_move, trick, taken, tricks_won, played,
 *   hearts_broken, phase, points or None, shooter, shot): each card must be legal. */
static PyObject *k_play(PyObject *self, PyObject *args) {
    PyObject *rules_obj, *pos_obj, *cards_obj;
    rules_t rules;
    position_t pos;
    if (!PyArg_ParseTuple(args, "OOO", &rules_obj, &pos_obj, &cards_obj) ||
        parse_rules(rules_obj, &rules) < 0 || parse_position(pos_obj, &rules, &pos) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(cards_obj, "cards: a sequence of card numbers");
    if (!fast) return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (pos.phase != PHASE_PLAYING || card < 0 || card > 51 ||
            !((legal_mask(&rules, &pos) >> card) & 1)) {
            Py_DECREF(fast);
            return PyErr_Format(PyExc_ValueError, "card %ld may not be played now", card);
        }
        play_card(&rules, &pos, (int)card);
    }
    Py_DECREF(fast);
    int players = rules.players;
    PyObject *points;
    if (pos.phase == PHASE_DONE) {
        points = points_tuple(&rules, &pos);
        if (!points) return NULL;
    } else {
        points = Py_NewRef(Py_None);
    }
    PyObject *shooter = pos.shooter >= 0 ? PyLong_FromLong(pos.shooter) : Py_NewRef(Py_None);
    static const char *shots[] = {NULL, "moon", "sun"};
    static const char *phases[] = {"playing", "moon_choice", "done"};
    return Py_BuildValue("(NiiNNNKiNNNz)", masks_tuple(pos.hands, players), pos.leader,
                         pos.to_move, ints_tuple(pos.trick, pos.trick_len),
                         masks_tuple(pos.taken, players), ints_tuple(pos.tricks_won, players),
                         (unsigned long long)pos.played, pos.hearts_broken, PyUnicode_FromString(phases[pos.phase]),
                         points, shooter, shots[pos.shot]);
}

/* playout(rules, position, policy, seed, count, add_for, root, shoot) -> [points, ...] */
static PyObject *k_playout(PyObject *self, PyObject *args) {
    PyObject *rules_obj, *pos_obj, *add_for_obj;
    int policy, root, shoot;
    unsigned long long seed;
    Py_ssize_t playouts;
    rules_t rules;
    position_t start;
    int add_for[MAX_PLAYERS];
    if (!PyArg_ParseTuple(args, "OOiKnOip", &rules_obj, &pos_obj, &policy, &seed, &playouts,
                          &add_for_obj, &root, &shoot) ||
        parse_rules(rules_obj, &rules) < 0 || parse_position(pos_obj, &rules, &start) < 0 ||
        parse_add_for(add_for_obj, &rules, add_for) < 0)
        return NULL;
    if (playouts < 0 || (policy != POLICY_RANDOM && policy != POLICY_EASY)) {
        PyErr_SetString(PyExc_ValueError, "playout: bad policy or count");
        return NULL;
    }
    plan_t plan = {root, shoot, -1, 0, LOOKAHEAD_NONE, 1, add_for};
    PyObject *result = PyList_New(playouts);
    if (!result) return NULL;
    uint64_t stream = seed;
    for (Py_ssize_t i = 0; i < playouts; i++) {
        position_t pos = start;
        if (policy == POLICY_RANDOM) playout_random(&rules, &pos, &stream);
        else playout_easy(&rules, &pos, &plan);
        finish_moon(&rules, &pos, add_for);
        PyObject *points = points_tuple(&rules, &pos);
        if (!points) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, points);
    }
    return result;
}

/* evaluate(rules, position, candidates, modes, root, add_for[, lookahead, depth, rival,
 * alarm]) -> [points, ...]: for each candidate card of the seat to move, then each mode
 * (shoot false/true), the deal's points after that card when every seat then follows the
 * easy policy (hard's search step), the seats of `lookahead` looking `depth` cards ahead,
 * seat `rival` going for the moon, a seat holding every point taken and `alarm` points
 * (above 0; else half of them) taken for a shooter. */
static PyObject *k_evaluate(PyObject *self, PyObject *args) {
    PyObject *rules_obj, *pos_obj, *cards_obj, *modes_obj, *add_for_obj;
    int root, cards[52], modes[2], add_for[MAX_PLAYERS], lookahead = LOOKAHEAD_NONE, depth = 1;
    int rival = -1, alarm = 0;
    rules_t rules;
    position_t start;
    if (!PyArg_ParseTuple(args, "OOOOiO|iiii", &rules_obj, &pos_obj, &cards_obj, &modes_obj,
                          &root, &add_for_obj, &lookahead, &depth, &rival, &alarm) ||
        parse_rules(rules_obj, &rules) < 0 || parse_position(pos_obj, &rules, &start) < 0 ||
        parse_add_for(add_for_obj, &rules, add_for) < 0)
        return NULL;
    if (lookahead < LOOKAHEAD_NONE || lookahead > LOOKAHEAD_ALL) {
        PyErr_SetString(PyExc_ValueError, "lookahead: 0 (none), 1 (root) or 2 (every seat)");
        return NULL;
    }
    if (depth < 1 || depth > 3) {
        PyErr_SetString(PyExc_ValueError, "lookahead depth: 1 to 3");
        return NULL;
    }
    if (rival < -1 || rival >= rules.players || rival == root) {
        PyErr_SetString(PyExc_ValueError, "rival: another seat than the root, or -1");
        return NULL;
    }
    if (alarm < 0) {
        PyErr_SetString(PyExc_ValueError, "alarm: points, not negative");
        return NULL;
    }
    int card_count = read_ints(cards_obj, cards, 0, 52, 0, 51, "candidates");
    int mode_count = read_ints(modes_obj, modes, 1, 2, 0, 1, "modes");
    if (card_count < 0 || mode_count < 0) return NULL;
    mask_t legal = legal_mask(&rules, &start);
    for (int c = 0; c < card_count; c++) {
        if (!((legal >> cards[c]) & 1))
            return PyErr_Format(PyExc_ValueError, "candidate %d may not be played now", cards[c]);
    }
    PyObject *result = PyList_New(card_count * mode_count);
    if (!result) return NULL;
    for (int c = 0; c < card_count; c++) {
        for (int m = 0; m < mode_count; m++) {
            position_t pos = start;
            play_card(&rules, &pos, cards[c]);
            plan_t plan = {root, modes[m], rival, alarm, lookahead, depth, add_for};
            playout_easy(&rules, &pos, &plan);
            finish_moon(&rules, &pos, add_for);
            PyObject *points = points_tuple(&rules, &pos);
            if (!points) {
                Py_DECREF(result);
                return NULL;
            }
            PyList_SET_ITEM(result, c * mode_count + m, points);
        }
    }
    return result;
}

/* random_u64(seed, count) -> the first draws of SplitMix64, to check prng.py against. */
static PyObject *k_random_u64(PyObject *self, PyObject *args) {
    unsigned long long seed;
    Py_ssize_t draws;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &draws)) return NULL;
    if (draws < 0) {
        PyErr_SetString(PyExc_ValueError, "count: not negative");
        return NULL;
    }
    PyObject *result = PyList_New(draws);
    if (!result) return NULL;
    uint64_t stream = seed;
    for (Py_ssize_t i = 0; i < draws; i++) {
        PyObject *value = PyLong_FromUnsignedLongLong(next_random(&stream));
        if (!value) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, value);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"legal_mask", k_legal_mask, METH_VARARGS, "legal_mask(rules, position) -> mask"},
    {"play", k_play, METH_VARARGS, "play(rules, position, cards) -> state tuple"},
    {"playout", k_playout, METH_VARARGS,
     "playout(rules, position, policy, seed, count, add_for, root, shoot) -> [points]"},
    {"evaluate", k_evaluate, METH_VARARGS,
     "evaluate(rules, position, candidates, modes, root, add_for[, lookahead, depth, rival, "
     "alarm]) -> "
     "[points]"},
    {"random_u64", k_random_u64, METH_VARARGS, "random_u64(seed, count) -> [draws]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "openhearts._kernel",
    "The compiled playout kernel; use it through openhearts.kernel.", -1, methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
