/* MPI_THREAD_MULTIPLE: 4 threads per rank count at the same time.
 * Each thread: ROUNDS × (100 B to the right neighbour, 100 B from the left, tag = thread)
 * and ROUNDS × an Alltoall of 16 B per peer on its own duplicate of MPI_COMM_WORLD. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 4
#define ROUNDS 50

static int r, n;
static MPI_Comm comms[THREADS];

static void *work(void *arg) {
    int t = (int)(long)arg;
    char sb[100] = {0}, rb[100];
    char *a = calloc(16 * n, 1), *b = calloc(16 * n, 1);
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Request q;
        MPI_Irecv(rb, 100, MPI_BYTE, (r + n - 1) % n, t, MPI_COMM_WORLD, &q);
        MPI_Send(sb, 100, MPI_BYTE, (r + 1) % n, t, MPI_COMM_WORLD);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Alltoall(a, 16, MPI_BYTE, b, 16, MPI_BYTE, comms[t]);
    }
    free(a);
    free(b);
    return NULL;
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int t = 0; t < THREADS; t++) MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, work, (void *)t);
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) MPI_Comm_free(&comms[t]);
    MPI_Finalize();
    return 0;
}
