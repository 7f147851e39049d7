/* Drives the PERUSE test double (peruse_double.c) through collectives and direct records. */
#include <mpi.h>
#include <stdlib.h>

#include "ibprof.h"

void peruse_double_fire(int src, int dst, int kind, unsigned long long bytes);

int main(int argc, char **argv) {
    int r, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int *a = calloc(64 * n, sizeof(int)), *b = calloc(64 * n, sizeof(int));
    MPI_Alltoall(a, 64, MPI_INT, b, 64, MPI_INT, MPI_COMM_WORLD);
    IBPROF_REGION("alltoall");
    MPI_Bcast(a, 100, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    peruse_double_fire(0x11, 0x400, IBPROF_OPENIB_SEND, 1000); /* outside any collective */
    peruse_double_fire(0x99, 0x500, IBPROF_OPENIB_SEND, 5);    /* from a LID no local port has */
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
