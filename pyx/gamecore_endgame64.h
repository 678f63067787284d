/* The exact solver's last four empty squares for boards of up to 64 squares, in C so that
 * they can be compiled twice, like gc_perft64: for any CPU and for AVX2 CPUs (flips in
 * vectors), picked at run time. The same searches as solve4 .. solve1 of pyx/endgame.pxd
 * and of its pure twin, node for node: the same move order (quadrants with an odd number
 * of the given squares first, else the given order), one node per call, a pass calling
 * the same routine again for the other side. Scores are final disc differences for the
 * side to move (`player`), empty squares going to the winner. */
#ifndef GAMECORE_ENDGAME64_H
#define GAMECORE_ENDGAME64_H
#include "gamecore_othello64.h"

typedef struct {
    const uint64_t (*rays)[8];  /* rays[square][direction], as gc_flips64 wants them */
    uint64_t neighbours[64];    /* the squares next to each square */
    unsigned char quad_of[64];  /* the parity region of each square */
    int nsq;
} gc_eg64;

static inline void gc_eg64_set_rays(gc_eg64* e, const uint64_t (*rays)[8]) { e->rays = rays; }

GC_ALWAYS_INLINE int gc_eg64_final_score(uint64_t player, uint64_t opponent, int nsq) {
    int mine = __builtin_popcountll(player), theirs = __builtin_popcountll(opponent);
    int diff = mine - theirs;
    if (diff > 0)
        return diff + (nsq - mine - theirs);
    if (diff < 0)
        return diff - (nsq - mine - theirs);
    return 0;
}

/* The squares alone-or-odd in their quadrant first, then the others, each in given order
 * (count <= 5). */
GC_ALWAYS_INLINE void gc_eg64_parity_order(const gc_eg64* e, const int* squares, int count, int* order) {
    int odd[5], i, j, same, k = 0;
    for (i = 0; i < count; i++) {
        same = 0;
        for (j = 0; j < count; j++)
            same += e->quad_of[squares[j]] == e->quad_of[squares[i]];
        odd[i] = same & 1;
    }
    for (i = 0; i < count; i++)
        if (odd[i])
            order[k++] = squares[i];
    for (i = 0; i < count; i++)
        if (!odd[i])
            order[k++] = squares[i];
}

/* The four solvers, written once over the flip routine (see GC_DEFINE_PERFT64). A square
 * with no opponent disc next to it flips nothing: no flip work there. */
#define GC_DEFINE_EG64(SUFFIX, ATTR, FLIPS)                                                      \
    ATTR static inline uint64_t gc_eg64_flips_##SUFFIX(const gc_eg64* e, uint64_t p, uint64_t o, int x) { \
        return (o & e->neighbours[x]) ? FLIPS(p, o, e->rays[x]) : 0;                              \
    }                                                                                             \
    ATTR static int gc_eg64_solve1_##SUFFIX(const gc_eg64* e, uint64_t p, uint64_t o, int x, uint64_t* nodes) { \
        int mine = __builtin_popcountll(p), theirs = __builtin_popcountll(o), k, diff;           \
        uint64_t f;                                                                               \
        ++*nodes;                                                                                 \
        f = gc_eg64_flips_##SUFFIX(e, p, o, x);                                                   \
        if (f) {                                                                                  \
            k = __builtin_popcountll(f);                                                          \
            return mine + k + 1 - (theirs - k);                                                   \
        }                                                                                         \
        f = gc_eg64_flips_##SUFFIX(e, o, p, x);                                                   \
        if (f) {                                                                                  \
            k = __builtin_popcountll(f);                                                          \
            return mine - k - (theirs + k + 1);                                                   \
        }                                                                                         \
        diff = mine - theirs;                                                                     \
        return diff > 0 ? diff + 1 : diff < 0 ? diff - 1 : 0;                                     \
    }                                                                                             \
    ATTR static int gc_eg64_solve2_##SUFFIX(const gc_eg64* e, uint64_t p, uint64_t o, int alpha, int beta, \
                                            int x1, int x2, int passed, uint64_t* nodes) {        \
        int best = -e->nsq - 1, score;                                                            \
        uint64_t f;                                                                               \
        ++*nodes;                                                                                 \
        f = gc_eg64_flips_##SUFFIX(e, p, o, x1);                                                  \
        if (f) {                                                                                  \
            score = -gc_eg64_solve1_##SUFFIX(e, o ^ f, p | f | ((uint64_t)1 << x1), x2, nodes);  \
            if (score > best) {                                                                   \
                best = score;                                                                     \
                if (best >= beta)                                                                 \
                    return best;                                                                  \
                if (best > alpha)                                                                 \
                    alpha = best;                                                                 \
            }                                                                                     \
        }                                                                                         \
        f = gc_eg64_flips_##SUFFIX(e, p, o, x2);                                                  \
        if (f) {                                                                                  \
            score = -gc_eg64_solve1_##SUFFIX(e, o ^ f, p | f | ((uint64_t)1 << x2), x1, nodes);  \
            if (score > best)                                                                     \
                best = score;                                                                     \
        }                                                                                         \
        if (best == -e->nsq - 1) {                                                                \
            if (passed)                                                                           \
                return gc_eg64_final_score(p, o, e->nsq);                                         \
            return -gc_eg64_solve2_##SUFFIX(e, o, p, -beta, -alpha, x1, x2, 1, nodes);            \
        }                                                                                         \
        return best;                                                                              \
    }                                                                                             \
    ATTR static int gc_eg64_solve3_##SUFFIX(const gc_eg64* e, uint64_t p, uint64_t o, int alpha, int beta, \
                                            int x1, int x2, int x3, int passed, uint64_t* nodes) { \
        int best = -e->nsq - 1, score, i, j, k, x, squares[3], order[3], rest[2];                \
        uint64_t f;                                                                               \
        ++*nodes;                                                                                 \
        squares[0] = x1; squares[1] = x2; squares[2] = x3;                                        \
        gc_eg64_parity_order(e, squares, 3, order);                                               \
        for (i = 0; i < 3; i++) {                                                                 \
            x = order[i];                                                                         \
            f = gc_eg64_flips_##SUFFIX(e, p, o, x);                                               \
            if (!f)                                                                               \
                continue;                                                                         \
            for (j = k = 0; j < 3; j++)                                                           \
                if (j != i)                                                                       \
                    rest[k++] = order[j];                                                         \
            score = -gc_eg64_solve2_##SUFFIX(e, o ^ f, p | f | ((uint64_t)1 << x), -beta, -alpha, \
                                             rest[0], rest[1], 0, nodes);                         \
            if (score > best) {                                                                   \
                best = score;                                                                     \
                if (best >= beta)                                                                 \
                    return best;                                                                  \
                if (best > alpha)                                                                 \
                    alpha = best;                                                                 \
            }                                                                                     \
        }                                                                                         \
        if (best == -e->nsq - 1) {                                                                \
            if (passed)                                                                           \
                return gc_eg64_final_score(p, o, e->nsq);                                         \
            return -gc_eg64_solve3_##SUFFIX(e, o, p, -beta, -alpha, x1, x2, x3, 1, nodes);        \
        }                                                                                         \
        return best;                                                                              \
    }                                                                                             \
    ATTR static int gc_eg64_solve4_##SUFFIX(const gc_eg64* e, uint64_t p, uint64_t o, int alpha, int beta, \
                                            int x1, int x2, int x3, int x4, int passed, uint64_t* nodes) { \
        int best = -e->nsq - 1, score, i, j, k, x, squares[4], order[4], rest[3];                \
        uint64_t f;                                                                               \
        ++*nodes;                                                                                 \
        squares[0] = x1; squares[1] = x2; squares[2] = x3; squares[3] = x4;                       \
        gc_eg64_parity_order(e, squares, 4, order);                                               \
        for (i = 0; i < 4; i++) {                                                                 \
            x = order[i];                                                                         \
            f = gc_eg64_flips_##SUFFIX(e, p, o, x);                                               \
            if (!f)                                                                               \
                continue;                                                                         \
            for (j = k = 0; j < 4; j++)                                                           \
                if (j != i)                                                                       \
                    rest[k++] = order[j];                                                         \
            score = -gc_eg64_solve3_##SUFFIX(e, o ^ f, p | f | ((uint64_t)1 << x), -beta, -alpha, \
                                             rest[0], rest[1], rest[2], 0, nodes);                \
            if (score > best) {                                                                   \
                best = score;                                                                     \
                if (best >= beta)                                                                 \
                    return best;                                                                  \
                if (best > alpha)                                                                 \
                    alpha = best;                                                                 \
            }                                                                                     \
        }                                                                                         \
        if (best == -e->nsq - 1) {                                                                \
            if (passed)                                                                           \
                return gc_eg64_final_score(p, o, e->nsq);                                         \
            return -gc_eg64_solve4_##SUFFIX(e, o, p, -beta, -alpha, x1, x2, x3, x4, 1, nodes);    \
        }                                                                                         \
        return best;                                                                              \
    }                                                                                             \
    /* shallow_search's moves at five empty squares `sq` (in presorted order): odd quadrants \
     * first, each child solved by solve4 over the other four in presorted order, as          \
     * search_child gives them. No node of its own (the caller counts it); -nsq - 1: no move. */ \
    ATTR static int gc_eg64_solve5_##SUFFIX(const gc_eg64* e, uint64_t p, uint64_t o, int alpha, int beta, \
                                            const int* sq, uint64_t* nodes) {                     \
        int best = -e->nsq - 1, score, i, j, k, x, order[5], rest[4];                            \
        uint64_t f;                                                                               \
        gc_eg64_parity_order(e, sq, 5, order);                                                    \
        for (i = 0; i < 5; i++) {                                                                 \
            x = order[i];                                                                         \
            f = gc_eg64_flips_##SUFFIX(e, p, o, x);                                               \
            if (!f)                                                                               \
                continue;                                                                         \
            for (j = k = 0; j < 5; j++)                                                           \
                if (sq[j] != x)                                                                   \
                    rest[k++] = sq[j];                                                            \
            score = -gc_eg64_solve4_##SUFFIX(e, o ^ f, p | f | ((uint64_t)1 << x), -beta, -alpha, \
                                             rest[0], rest[1], rest[2], rest[3], 0, nodes);       \
            if (score > best) {                                                                   \
                best = score;                                                                     \
                if (best >= beta)                                                                 \
                    return best;                                                                  \
                if (best > alpha)                                                                 \
                    alpha = best;                                                                 \
            }                                                                                     \
        }                                                                                         \
        return best;                                                                              \
    }                                                                                             \
    ATTR static int gc_eg64_solve_##SUFFIX(const gc_eg64* e, uint64_t p, uint64_t o, int alpha, int beta, \
                                           int empties, const int* sq, uint64_t* nodes) {         \
        switch (empties) {                                                                        \
        case 4: return gc_eg64_solve4_##SUFFIX(e, p, o, alpha, beta, sq[0], sq[1], sq[2], sq[3], 0, nodes); \
        case 3: return gc_eg64_solve3_##SUFFIX(e, p, o, alpha, beta, sq[0], sq[1], sq[2], 0, nodes); \
        case 2: return gc_eg64_solve2_##SUFFIX(e, p, o, alpha, beta, sq[0], sq[1], 0, nodes);     \
        case 1: return gc_eg64_solve1_##SUFFIX(e, p, o, sq[0], nodes);                            \
        default: ++*nodes; return gc_eg64_final_score(p, o, e->nsq);                              \
        }                                                                                         \
    }

GC_DEFINE_EG64(portable, , gc_flips64)
#ifdef GC_HAVE_AVX2_PERFT
GC_DEFINE_EG64(avx2, GC_AVX2, gc_flips64_avx2)
#endif

/* A move's flips and the replier's moves after it, for the move ordering of deep nodes. */
#define GC_DEFINE_EG64_CHILD(SUFFIX, ATTR, MOVES, FLIPS)                                          \
    ATTR static uint64_t gc_eg64_child_##SUFFIX(const gc_board64* b, uint64_t p, uint64_t o, int x,   \
                                                uint64_t* replies) {                              \
        uint64_t f = FLIPS(p, o, b->rays[x]);                                                     \
        *replies = MOVES(o ^ f, p | f | ((uint64_t)1 << x), b);                                  \
        return f;                                                                                 \
    }

GC_DEFINE_EG64_CHILD(portable, , gc_moves64, gc_flips64)
#ifdef GC_HAVE_AVX2_PERFT
GC_DEFINE_EG64_CHILD(avx2, GC_AVX2, gc_moves64_avx2, gc_flips64_avx2)
GC_AVX2 static uint64_t gc_eg64_moves_avx2(const gc_board64* b, uint64_t player, uint64_t opponent) {
    return gc_moves64_avx2(player, opponent, b);
}
#endif

/* The discs a move of `player` on `x` flips; `*replies`: the opponent's moves after it. */
static inline uint64_t gc_eg64_child(const gc_board64* b, uint64_t player, uint64_t opponent, int x,
                                     uint64_t* replies) {
#ifdef GC_HAVE_AVX2_PERFT
    if (gc_cpu_has_avx2())
        return gc_eg64_child_avx2(b, player, opponent, x, replies);
#endif
    return gc_eg64_child_portable(b, player, opponent, x, replies);
}

/* The moves of `player`, on the fastest generator. */
static inline uint64_t gc_eg64_moves(const gc_board64* b, uint64_t player, uint64_t opponent) {
#ifdef GC_HAVE_AVX2_PERFT
    if (gc_cpu_has_avx2())
        return gc_eg64_moves_avx2(b, player, opponent);
#endif
    return gc_moves64(player, opponent, b);
}

/* The discs a move of `player` on `x` flips (0 if none), on the fastest flips. */
static inline uint64_t gc_eg64_flips(const gc_eg64* e, uint64_t player, uint64_t opponent, int x) {
#ifdef GC_HAVE_AVX2_PERFT
    if (gc_cpu_has_avx2())
        return gc_eg64_flips_avx2(e, player, opponent, x);
#endif
    return gc_eg64_flips_portable(e, player, opponent, x);
}

/* The exact score with `empties` <= 4 empty squares `sq` (in the caller's order): the
 * solvers above on the fastest flips this CPU runs; `*nodes` counts the nodes. */
static inline int gc_eg64_solve(const gc_eg64* e, uint64_t player, uint64_t opponent, int alpha, int beta,
                                int empties, const int* sq, uint64_t* nodes) {
#ifdef GC_HAVE_AVX2_PERFT
    if (gc_cpu_has_avx2())
        return gc_eg64_solve_avx2(e, player, opponent, alpha, beta, empties, sq, nodes);
#endif
    return gc_eg64_solve_portable(e, player, opponent, alpha, beta, empties, sq, nodes);
}

/* shallow_search's moves at five empty squares (gc_eg64_solve5_*) on the fastest flips. */
static inline int gc_eg64_solve5(const gc_eg64* e, uint64_t player, uint64_t opponent, int alpha, int beta,
                                 const int* sq, uint64_t* nodes) {
#ifdef GC_HAVE_AVX2_PERFT
    if (gc_cpu_has_avx2())
        return gc_eg64_solve5_avx2(e, player, opponent, alpha, beta, sq, nodes);
#endif
    return gc_eg64_solve5_portable(e, player, opponent, alpha, beta, sq, nodes);
}

#endif
