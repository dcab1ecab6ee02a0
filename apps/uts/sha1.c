/*
 * sha1.c - SHA-1, as FIPS 180-4 ("Secure Hash Standard", NIST, 2015)
 * defines it in sections 5.1.1 (padding), 6.1.2 (the computation) and
 * 4.1.1, 4.2.1 (the functions and constants): the splittable random
 * stream of the unbalanced tree search (uts.h).
 *
 * One call hashes a whole message held in memory, which is all the tree
 * needs (24 bytes: one block).  sha1_selftest() checks it against the
 * standard's examples.
 */
#include <stdio.h>
#include <string.h>

#include "uts.h"

static inline uint32_t rol(uint32_t x, int n)
{
    return x << n | x >> (32 - n);
}

static inline uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* FIPS 180-4 §4.1.1: the round functions, with the Ch and Maj forms that
 * need one operation fewer; §4.2.1: the constants. */
#define F0(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define F1(b, c, d) ((b) ^ (c) ^ (d))
#define F2(b, c, d) (((b) & (c)) | ((d) & ((b) | (c))))
#define K0 0x5a827999u
#define K1 0x6ed9eba1u
#define K2 0x8f1bbcdcu
#define K3 0xca62c1d6u

/* §6.1.2 step 1: word t of the schedule, kept in 16 words that it
 * overwrites as it goes (t >= 16). */
#define W(t) (w[(t) & 15] = rol(w[((t) - 3) & 15] ^ w[((t) - 8) & 15] ^ w[((t) - 14) & 15] ^ \
                                w[(t) & 15], 1))

/* §6.1.2 step 3, one round t: T = ROTL5(a) + f(b, c, d) + e + K + W, then
 * e = d, d = c, c = ROTL30(b), b = a, a = T.  The names turn instead of the
 * values: the round writes T into e's variable and rotates b in place, and
 * the next round calls the variables one place on. */
#define R(a, b, c, d, e, f, k, x)                                                                 \
    do {                                                                                       \
        e += rol(a, 5) + f(b, c, d) + (k) + (x);                                               \
        b = rol(b, 30);                                                                        \
    } while (0)

/* Five rounds, after which the names are back where they began. */
#define R5(f, k, t, X)                                                                          \
    do {                                                                                       \
        R(a, b, c, d, e, f, k, X(t));                                                          \
        R(e, a, b, c, d, f, k, X((t) + 1));                                                    \
        R(d, e, a, b, c, f, k, X((t) + 2));                                                    \
        R(c, d, e, a, b, f, k, X((t) + 3));                                                    \
        R(b, c, d, e, a, f, k, X((t) + 4));                                                    \
    } while (0)
#define W0(t) w[t]

/* FIPS 180-4 §6.1.2, steps 1 to 4, on one 64-byte block, the 80 rounds
 * written out as an optimizing compiler would unroll them: the tree hashes
 * one block per node, which is most of the node's work. */
static void compress(uint32_t h[5], const unsigned char *block)
{
    uint32_t w[16];
    for (int t = 0; t < 16; ++t)
        w[t] = be32(block + 4 * t);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    R5(F0, K0, 0, W0);
    R5(F0, K0, 5, W0);
    R5(F0, K0, 10, W0);
    R(a, b, c, d, e, F0, K0, w[15]);
    R(e, a, b, c, d, F0, K0, W(16));
    R(d, e, a, b, c, F0, K0, W(17));
    R(c, d, e, a, b, F0, K0, W(18));
    R(b, c, d, e, a, F0, K0, W(19));
    R5(F1, K1, 20, W);
    R5(F1, K1, 25, W);
    R5(F1, K1, 30, W);
    R5(F1, K1, 35, W);
    R5(F2, K2, 40, W);
    R5(F2, K2, 45, W);
    R5(F2, K2, 50, W);
    R5(F2, K2, 55, W);
    R5(F1, K3, 60, W);
    R5(F1, K3, 65, W);
    R5(F1, K3, 70, W);
    R5(F1, K3, 75, W);
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

void sha1(const void *message, size_t n, unsigned char digest[UTS_DIGEST])
{
    uint32_t h[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };  /* §5.3.1 */
    const unsigned char *m = message;
    size_t whole = n / 64 * 64;
    for (size_t k = 0; k < whole; k += 64)
        compress(h, m + k);
    /* §5.1.1: the rest, a 1 bit, zeros, and the length in bits in the
     * last 8 bytes: one block, or two if the rest leaves no room. */
    unsigned char last[128] = { 0 };
    size_t rest = n - whole, blocks = rest < 56 ? 1 : 2;
    memcpy(last, m + whole, rest);
    last[rest] = 0x80;
    uint64_t bits = (uint64_t)n * 8;
    for (int k = 0; k < 8; ++k)
        last[blocks * 64 - 1 - k] = (unsigned char)(bits >> (8 * k));
    for (size_t k = 0; k < blocks; ++k)
        compress(h, last + 64 * k);
    for (int k = 0; k < 5; ++k) {
        digest[4 * k] = (unsigned char)(h[k] >> 24);
        digest[4 * k + 1] = (unsigned char)(h[k] >> 16);
        digest[4 * k + 2] = (unsigned char)(h[k] >> 8);
        digest[4 * k + 3] = (unsigned char)h[k];
    }
}

int sha1_selftest(void)
{
    /* The examples of FIPS 180-4 (NIST's "SHA1.pdf"): one block, two
     * blocks, and a million 'a's (15625 blocks, then one of padding). */
    static const struct {
        const char *message;
        size_t repeat;
        const char *digest;
    } known[] = {
        { "abc", 1, "a9993e364706816aba3e25717850c26c9cd0d89d" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
          "84983e441c3bd26ebaae4aa1f95129e5e54670f1" },
        { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 15625,
          "34aa973cd4c4daa4f61eeb2bdbad27316534016f" },
    };
    static unsigned char million[1000000];
    for (size_t t = 0; t < sizeof known / sizeof *known; ++t) {
        size_t len = strlen(known[t].message);
        for (size_t k = 0; k < known[t].repeat; ++k)
            memcpy(million + k * len, known[t].message, len);
        unsigned char d[UTS_DIGEST];
        char hex[2 * UTS_DIGEST + 1];
        sha1(million, len * known[t].repeat, d);
        for (int k = 0; k < UTS_DIGEST; ++k)
            snprintf(hex + 2 * k, 3, "%02x", d[k]);
        if (strcmp(hex, known[t].digest) != 0) {
            fprintf(stderr, "uts: SHA-1 example %zu gives %s, not %s\n", t + 1, hex,
                    known[t].digest);
            return 0;
        }
    }
    return 1;
}
