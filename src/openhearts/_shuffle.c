/* The deal's shuffle in C: the very hands openhearts.game._reference_shuffled_hands deals.
 *
 * That reference seeds Python's random.Random (the Mersenne Twister, MT19937) with the
 * deal's seed, draws one random() key per card of the deck in card order, sorts the cards
 * by key (stably) and deals them one at a time from the seat after the dealer in the
 * order of play.  This file does
 * the same with the same generator: seeding by init_by_array on the seed's 32-bit words
 * (as CPython's random.seed does for a non-negative int; Python turns a text seed into
 * that int first), and random() as CPython builds it from two 32-bit outputs.
 * tests/test_shuffle.py requires the same hands for many seeds of both kinds.
 *
 * It exists for speed: seeding a random.Random object and drawing 52 keys from Python
 * costs several microseconds per deal, a sixth of a whole random deal through Game.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t state[MT_N];
    int index;
} Twister;

static void seed_word(Twister *mt, uint32_t word) {
    mt->state[0] = word;
    for (int i = 1; i < MT_N; i++) {
        uint32_t previous = mt->state[i - 1];
        mt->state[i] = 1812433253U * (previous ^ (previous >> 30)) + (uint32_t)i;
    }
    mt->index = MT_N;
}

/* Seeding from a key of 32-bit words, as the generator's authors define it. */
static void seed_words(Twister *mt, const uint32_t *key, size_t length) {
    uint32_t *s = mt->state;
    seed_word(mt, 19650218U);
    size_t i = 1, j = 0;
    for (size_t k = MT_N > length ? MT_N : length; k; k--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            s[0] = s[MT_N - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (size_t k = MT_N - 1; k; k--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            s[0] = s[MT_N - 1];
            i = 1;
        }
    }
    s[0] = 0x80000000U;
}

static uint32_t next_word(Twister *mt) {
    static const uint32_t twist[2] = {0U, 0x9908b0dfU};
    uint32_t *s = mt->state;
    if (mt->index >= MT_N) {
        int k;
        uint32_t y;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (s[k] & 0x80000000U) | (s[k + 1] & 0x7fffffffU);
            s[k] = s[k + MT_M] ^ (y >> 1) ^ twist[y & 1U];
        }
        for (; k < MT_N - 1; k++) {
            y = (s[k] & 0x80000000U) | (s[k + 1] & 0x7fffffffU);
            s[k] = s[k + (MT_M - MT_N)] ^ (y >> 1) ^ twist[y & 1U];
        }
        y = (s[MT_N - 1] & 0x80000000U) | (s[0] & 0x7fffffffU);
        s[MT_N - 1] = s[MT_M - 1] ^ (y >> 1) ^ twist[y & 1U];
        mt->index = 0;
    }
    uint32_t y = s[mt->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* random.random(): 53 random bits from two words. */
static double next_double(Twister *mt) {
    uint32_t high = next_word(mt) >> 5, low = next_word(mt) >> 6;
    return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0);
}

/* shuffled_hands(key, deck_mask, players, dealer) -> list of hand masks.
 * key: the seed as little-endian bytes (a multiple of 4 long, at least 4). */
static PyObject *shuffled_hands(PyObject *module, PyObject *args) {
    Py_buffer key;
    unsigned long long deck_mask;
    int players, dealer;
    if (!PyArg_ParseTuple(args, "y*Kii", &key, &deck_mask, &players, &dealer)) return NULL;
    if (key.len < 4 || key.len % 4 || players < 1 || players > 8 || dealer < 0) {
        PyBuffer_Release(&key);
        PyErr_SetString(PyExc_ValueError, "shuffled_hands: bad key, players or dealer");
        return NULL;
    }
    size_t words = (size_t)key.len / 4;
    uint32_t *seed = PyMem_Malloc(words * sizeof(uint32_t));
    if (seed == NULL) {
        PyBuffer_Release(&key);
        return PyErr_NoMemory();
    }
    const unsigned char *bytes = key.buf;
    for (size_t w = 0; w < words; w++) {
        seed[w] = (uint32_t)bytes[4 * w] | (uint32_t)bytes[4 * w + 1] << 8 |
                  (uint32_t)bytes[4 * w + 2] << 16 | (uint32_t)bytes[4 * w + 3] << 24;
    }
    PyBuffer_Release(&key);
    Twister mt;
    seed_words(&mt, seed, words);
    PyMem_Free(seed);

    int cards[64], order[64], count = 0;
    double keys[64];
    for (int card = 0; card < 64; card++) {
        if (deck_mask >> card & 1ULL) cards[count++] = card;
    }
    for (int i = 0; i < count; i++) keys[i] = next_double(&mt);
    /* A stable insertion sort of the card indices by key, as Python's sorted() orders. */
    for (int i = 0; i < count; i++) {
        int j = i;
        while (j > 0 && keys[order[j - 1]] > keys[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    unsigned long long hands[8] = {0};
    for (int position = 0; position < count; position++) {
        int seat = (dealer + 1 + position % players) % players;
        hands[seat] |= 1ULL << cards[order[position]];
    }
    PyObject *result = PyList_New(players);
    if (result == NULL) return NULL;
    for (int seat = 0; seat < players; seat++) {
        PyObject *hand = PyLong_FromUnsignedLongLong(hands[seat]);
        if (hand == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, seat, hand);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"shuffled_hands", shuffled_hands, METH_VARARGS,
     "shuffled_hands(key, deck_mask, players, dealer) -> [hand mask per seat]"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "openhearts._shuffle",
    "The deal's shuffle in C; openhearts.game uses it when it is built.", -1, methods,
};

PyMODINIT_FUNC PyInit__shuffle(void) { return PyModule_Create(&module); }
