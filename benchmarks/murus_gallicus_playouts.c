/* Murus Gallicus random playouts in C: the physical-limit anchor of benchmarks/engine.py.
 *
 * The default game (8x7 board, draw at the 3rd occurrence of a position, draw at ply 400),
 * the same rules as boardlab/games/murus_gallicus: one uint64 per board with 8-bit rows,
 * moves generated for all towers of a direction at once, an incremental Zobrist key and the
 * repetition history since the last sacrifice. Each decision is drawn uniformly from the legal
 * ones (xorshift64*). Prints games, decisions, CPU seconds and games per CPU second.
 *
 *     gcc -O2 -o mg benchmarks/murus_gallicus_playouts.c && ./mg 100000 1
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROWS 7
#define REPETITION 3
#define MAX_PLIES 400
#define HISTORY 512

typedef uint64_t u64;
static const int SHIFT[8] = {8, 9, 1, -7, -8, -9, -1, 7}; /* N NE E SE S SW W NW */
static const u64 NOT_A = 0xFEFEFEFEFEFEFEFEull, NOT_H = 0x7F7F7F7F7F7F7F7Full;
static u64 LAND[8], MASK, GOAL[2], ZOBRIST[4][64], ZSIDE;

static inline u64 step(u64 x, int d) {
    int s = SHIFT[d];
    return (s > 0 ? x << s : x >> -s) & LAND[d];
}

typedef struct {
    u64 bits[4]; /* Roman towers, Roman walls, Gaul towers, Gaul walls */
    int side, ply;
    u64 key;
} Position;

/* Writes the legal decisions of the side to move as (kind * 8 + direction) << 6 | cell. */
static int legal(const Position *p, int *out) {
    int own = 2 * p->side, n = 0;
    u64 towers = p->bits[own], enemy_walls = p->bits[3 - own];
    u64 free = MASK & ~(towers | p->bits[2 - own] | enemy_walls);
    for (int d = 0; d < 8; d++) {
        u64 o = towers & step(free & step(free, d ^ 4), d ^ 4);
        while (o) { out[n++] = d << 6 | __builtin_ctzll(o); o &= o - 1; }
    }
    if (enemy_walls)
        for (int d = 0; d < 8; d++) {
            u64 o = towers & step(enemy_walls, d ^ 4);
            while (o) { out[n++] = (8 + d) << 6 | __builtin_ctzll(o); o &= o - 1; }
        }
    return n;
}

static int can_move(const Position *p) {
    int own = 2 * p->side;
    u64 towers = p->bits[own], enemy_walls = p->bits[3 - own];
    u64 free = MASK & ~(towers | p->bits[2 - own] | enemy_walls);
    for (int d = 0; d < 8; d++)
        if ((towers & step(free & step(free, d ^ 4), d ^ 4)) || (towers & step(enemy_walls, d ^ 4)))
            return 1;
    return 0;
}

static u64 rng;
static inline u64 next(void) {
    rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Dull;
}

/* One game from the start; returns the decisions played. */
static int playout(void) {
    static u64 history[HISTORY];
    int moves[512], count = 0, decisions = 0;
    Position p = {{0, 0, 0, 0}, 0, 0, 0};
    p.bits[0] = 0xFFull;
    p.bits[2] = 0xFFull << (8 * (ROWS - 1));
    for (int c = 0; c < 8; c++) p.key ^= ZOBRIST[0][c] ^ ZOBRIST[2][8 * (ROWS - 1) + c];
    history[count++] = p.key;
    for (;;) {
        int n = legal(&p, moves);
        if (n == 0) return decisions;
        int m = moves[(int)(((next() >> 32) * (u64)n) >> 32)];
        int kd = m >> 6, cell = m & 63, d = kd & 7, own = 2 * p.side, mover = p.side;
        if (kd < 8) {
            int near = cell + SHIFT[d], far = near + SHIFT[d];
            u64 walls = p.bits[own + 1], target = (1ull << near) | (1ull << far);
            p.key ^= ZOBRIST[own][cell];
            p.key ^= (walls >> near & 1) ? ZOBRIST[own + 1][near] ^ ZOBRIST[own][near] : ZOBRIST[own + 1][near];
            p.key ^= (walls >> far & 1) ? ZOBRIST[own + 1][far] ^ ZOBRIST[own][far] : ZOBRIST[own + 1][far];
            p.bits[own] = (p.bits[own] ^ (1ull << cell)) | (walls & target);
            p.bits[own + 1] = walls ^ target;
        } else {
            int wall = cell + SHIFT[d];
            p.bits[3 - own] ^= 1ull << wall;
            p.bits[own] ^= 1ull << cell;
            p.bits[own + 1] |= 1ull << cell;
            p.key ^= ZOBRIST[3 - own][wall] ^ ZOBRIST[own][cell] ^ ZOBRIST[own + 1][cell];
            count = 0; /* a sacrifice: no earlier position can come back */
        }
        p.key ^= ZSIDE;
        p.side ^= 1;
        p.ply++;
        decisions++;
        if ((p.bits[own] | p.bits[own + 1]) & GOAL[mover]) return decisions; /* breakthrough */
        if (!can_move(&p)) return decisions;                                /* stalemate */
        int seen = 1;
        for (int i = 0; i < count; i++) seen += history[i] == p.key;
        if (count == HISTORY) { fprintf(stderr, "history full\n"); exit(1); }
        history[count++] = p.key;
        if (seen >= REPETITION || p.ply >= MAX_PLIES) return decisions;
    }
}

int main(int argc, char **argv) {
    long games = argc > 1 ? atol(argv[1]) : 100000;
    rng = argc > 2 ? (u64)atoll(argv[2]) * 0x9E3779B97F4A7C15ull + 1 : 1;
    for (int i = 0; i < 4 * 64; i++) ZOBRIST[i / 64][i % 64] = next();
    ZSIDE = next();
    for (int d = 0; d < 8; d++) LAND[d] = (d >= 1 && d <= 3) ? NOT_A : (d >= 5) ? NOT_H : ~0ull;
    MASK = (1ull << (8 * ROWS)) - 1;
    GOAL[0] = 0xFFull << (8 * (ROWS - 1));
    GOAL[1] = 0xFFull;
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    long decisions = 0;
    for (long g = 0; g < games; g++) decisions += playout();
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    double seconds = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("%ld %ld %.6f %.1f %.3f\n", games, decisions, seconds, games / seconds,
           (double)decisions / games);
    return 0;
}
