/* A small job for comparing backends: p2p, Alltoall and Bcast in two regions.
 * With Open MPI's basic linear algorithms pinned, every collective is a set of direct
 * point-to-point messages, so the logical bytes (pmpi) equal the bytes sent (ompi-monitoring). */
#include <mpi.h>
#include <stdlib.h>

#include "ibprof.h"

int main(int argc, char **argv) {
    int r, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char *a = calloc(4096 * n, 1), *b = calloc(4096 * n, 1);
    MPI_Sendrecv(a, 123, MPI_BYTE, (r + 1) % n, 0, b, 123, MPI_BYTE, (r + n - 1) % n, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Alltoall(a, 100, MPI_INT, b, 100, MPI_INT, MPI_COMM_WORLD);
    IBPROF_REGION("exchange");
    MPI_Bcast(a, 1000, MPI_BYTE, 1, MPI_COMM_WORLD);
    MPI_Alltoall(a, 1024, MPI_BYTE, b, 1024, MPI_BYTE, MPI_COMM_WORLD);
    IBPROF_REGION("broadcast");
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
