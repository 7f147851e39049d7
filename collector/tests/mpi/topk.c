/* Known traffic for the top-K summary: ranks 1, 2 and 3 send 100000, 90000 and 80000 bytes to
 * rank 0, every other rank 1000 bytes, in one region ("gather"), all point to point. */
#include <mpi.h>
#include <stdlib.h>

#include "ibprof.h"

static int bytes_of(int r) { return r >= 1 && r <= 3 ? 110000 - 10000 * r : 1000; }

int main(int argc, char **argv) {
    int r, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    char *buf = calloc(100000, 1);
    if (r == 0) {
        for (int i = 1; i < n; i++)
            MPI_Recv(buf, bytes_of(i), MPI_BYTE, i, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(buf, bytes_of(r), MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    }
    IBPROF_REGION("gather");
    free(buf);
    MPI_Finalize();
    return 0;
}
