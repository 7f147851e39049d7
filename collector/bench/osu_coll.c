/* OSU-style latency benchmark for MPI_Alltoall and MPI_Bcast, for measuring libibprof's cost.
 *
 *   osu_coll alltoall|bcast [min_bytes] [max_bytes] [iterations]
 *
 * For each message size (powers of two from min to max; per peer for Alltoall), it runs
 * `iterations / 10` warm-up calls, then `iterations` timed calls between barriers, and rank 0
 * prints "size avg_latency_us" where the latency is the average over ranks of each rank's mean
 * time per call (as the OSU micro-benchmarks report). Iterations shrink for large sizes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (argc < 2 || (strcmp(argv[1], "alltoall") && strcmp(argv[1], "bcast"))) {
        if (r == 0) fprintf(stderr, "usage: %s alltoall|bcast [min] [max] [iterations]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int alltoall = strcmp(argv[1], "alltoall") == 0;
    long min = argc > 2 ? atol(argv[2]) : 1;
    long max = argc > 3 ? atol(argv[3]) : 1 << 20;
    long iters = argc > 4 ? atol(argv[4]) : 1000;
    size_t per = alltoall ? (size_t)n : 1;
    char *sb = malloc(max * per), *rb = malloc(max * per);
    memset(sb, r, max * per);
    memset(rb, 0, max * per);
    for (long size = min; size <= max; size *= 2) {
        long it = size > 65536 ? (iters / 10 > 10 ? iters / 10 : 10) : iters;
        long warm = it / 10 > 2 ? it / 10 : 2;
        double t0 = 0;
        for (long i = 0; i < warm + it; i++) {
            if (i == warm) {
                MPI_Barrier(MPI_COMM_WORLD);
                t0 = MPI_Wtime();
            }
            if (alltoall)
                MPI_Alltoall(sb, (int)size, MPI_BYTE, rb, (int)size, MPI_BYTE, MPI_COMM_WORLD);
            else
                MPI_Bcast(sb, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
        }
        double mine = (MPI_Wtime() - t0) * 1e6 / it, sum = 0;
        MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (r == 0) printf("%ld %.3f\n", size, sum / n);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(sb);
    free(rb);
    MPI_Finalize();
    return 0;
}
