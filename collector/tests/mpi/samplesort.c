/* A small samplesort, for a real collector profile (collector/tests/data/).
 * Regions: "splitters" (Allgather of samples, Bcast of the splitters from rank 0),
 * "exchange" (Alltoall of counts, Alltoallv of the keys), "check" (Gather of sizes, Allreduce).
 * Each rank sorts 65536 pseudo-random 64-bit keys; the result is checked. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ibprof.h"

#define KEYS 65536
#define SAMPLES 64

static int cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int r, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    uint64_t *keys = malloc(KEYS * sizeof *keys), seed = 88172645463325252ULL ^ (uint64_t)(r + 1) * 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < KEYS; i++) {
        seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
        keys[i] = seed >> (r % 3); /* uneven distributions per rank */
    }
    qsort(keys, KEYS, sizeof *keys, cmp);

    uint64_t samples[SAMPLES], *all = malloc((size_t)n * SAMPLES * sizeof *all), *split = malloc(n * sizeof *split);
    for (int i = 0; i < SAMPLES; i++) samples[i] = keys[(size_t)i * KEYS / SAMPLES];
    MPI_Allgather(samples, SAMPLES, MPI_UINT64_T, all, SAMPLES, MPI_UINT64_T, MPI_COMM_WORLD);
    if (r == 0) {
        qsort(all, (size_t)n * SAMPLES, sizeof *all, cmp);
        for (int i = 1; i < n; i++) split[i - 1] = all[(size_t)i * SAMPLES];
    }
    MPI_Bcast(split, n - 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    IBPROF_REGION("splitters");

    int *sc = calloc(n, sizeof(int)), *rc = calloc(n, sizeof(int)), *sd = calloc(n, sizeof(int)), *rd = calloc(n, sizeof(int));
    for (int i = 0, b = 0; i < KEYS; i++) {
        while (b < n - 1 && keys[i] >= split[b]) b++;
        sc[b]++;
    }
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int i = 0; i < n; i++) {
        sd[i] = i ? sd[i - 1] + sc[i - 1] : 0;
        rd[i] = total;
        total += rc[i];
    }
    uint64_t *mine = malloc((size_t)total * sizeof *mine + 8);
    MPI_Alltoallv(keys, sc, sd, MPI_UINT64_T, mine, rc, rd, MPI_UINT64_T, MPI_COMM_WORLD);
    qsort(mine, total, sizeof *mine, cmp);
    IBPROF_REGION("exchange");

    int *sizes = r == 0 ? malloc(n * sizeof(int)) : NULL;
    MPI_Gather(&total, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
    long ok = 1, all_ok;
    for (int i = 1; i < total; i++) ok &= mine[i - 1] <= mine[i];
    if (r + 1 < n && total) ok &= mine[total - 1] < split[r];
    MPI_Allreduce(&ok, &all_ok, 1, MPI_LONG, MPI_LAND, MPI_COMM_WORLD);
    if (r == 0) {
        long sum = 0;
        for (int i = 0; i < n; i++) sum += sizes[i];
        printf("samplesort: %d ranks, %ld keys, sorted: %s\n", n, sum, all_ok ? "yes" : "NO");
    }
    MPI_Finalize();
    return all_ok ? 0 : 1;
}
