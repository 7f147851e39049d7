/* libibprof's overhead on one collective at one size, measured within one 2-rank process by
 * pairing: blocks of calls through MPI_* (the preloaded wrapper, when libibprof is preloaded)
 * alternate with blocks through PMPI_* (MPI itself, never wrapped), so both sides of a pair
 * share the process, its memory placement and the same moments of machine noise.
 *
 *   paired_coll alltoall|bcast bytes calls_per_block pairs
 *
 * Each pair runs its two blocks in alternating order (MPI first in even pairs, PMPI first in odd
 * ones) after an untimed barrier each. Rank 0 prints one line per pair, "mpi_us pmpi_us": the
 * mean time per call of each block, averaged over the ranks. Without a preload both blocks call
 * the same MPI code, so the difference is the method's own noise. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*alltoall_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
typedef int (*bcast_fn)(void *, int, MPI_Datatype, int, MPI_Comm);

/* The mean time per call, in microseconds, of `calls` calls through one entry point. */
static double block(int alltoall, int wrapped, char *sb, char *rb, int bytes, long calls) {
    alltoall_fn a2a = wrapped ? MPI_Alltoall : PMPI_Alltoall;
    bcast_fn bc = wrapped ? MPI_Bcast : PMPI_Bcast;
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < calls; i++) {
        if (alltoall)
            a2a(sb, bytes, MPI_BYTE, rb, bytes, MPI_BYTE, MPI_COMM_WORLD);
        else
            bc(sb, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    return (MPI_Wtime() - t0) * 1e6 / (double)calls;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc != 5 || (strcmp(argv[1], "alltoall") && strcmp(argv[1], "bcast"))) {
        if (r == 0) fprintf(stderr, "usage: %s alltoall|bcast bytes calls_per_block pairs\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int alltoall = strcmp(argv[1], "alltoall") == 0;
    int bytes = atoi(argv[2]);
    long calls = atol(argv[3]), pairs = atol(argv[4]);
    if (bytes < 1 || calls < 1 || pairs < 1) {
        if (r == 0) fprintf(stderr, "bytes, calls_per_block and pairs must be positive\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    size_t per = alltoall ? (size_t)n : 1;
    char *sb = malloc((size_t)bytes * per), *rb = malloc((size_t)bytes * per);
    double *times = calloc(2 * (size_t)pairs, sizeof(double));
    double *sums = calloc(2 * (size_t)pairs, sizeof(double));
    if (!sb || !rb || !times || !sums) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(sb, r, (size_t)bytes * per);
    memset(rb, 0, (size_t)bytes * per);
    block(alltoall, 1, sb, rb, bytes, calls); /* warm-up, both entry points */
    block(alltoall, 0, sb, rb, bytes, calls);
    for (long p = 0; p < pairs; p++) {
        int first = p % 2 == 0; /* 1: the wrapped block first */
        double t_first = block(alltoall, first, sb, rb, bytes, calls);
        double t_second = block(alltoall, !first, sb, rb, bytes, calls);
        times[2 * p] = first ? t_first : t_second;
        times[2 * p + 1] = first ? t_second : t_first;
    }
    PMPI_Reduce(times, sums, 2 * (int)pairs, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (r == 0)
        for (long p = 0; p < pairs; p++) printf("%.4f %.4f\n", sums[2 * p] / n, sums[2 * p + 1] / n);
    free(sb);
    free(rb);
    free(times);
    free(sums);
    MPI_Finalize();
    return 0;
}
