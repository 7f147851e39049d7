/* Known message sizes in every family of MPI calls, one region per family.
 * collector/tests/mpi_runs.rs holds the byte counts this program must produce (model()).
 * It checks its own results and prints a checksum of everything it received, so that a run
 * with the collector can be compared with a run without. Needs an even number of ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibprof.h"

static int r, n;
static unsigned long long checksum;

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            fprintf(stderr, "rank %d: check failed line %d: %s\n", r, __LINE__, #cond); \
            MPI_Abort(MPI_COMM_WORLD, 2);                                             \
        }                                                                             \
    } while (0)

static void sum(const void *p, size_t len) {
    const unsigned char *c = p;
    for (size_t i = 0; i < len; i++) checksum = checksum * 1099511628211ULL + c[i];
}

static void fill(void *p, size_t len, int seed) {
    unsigned char *c = p;
    for (size_t i = 0; i < len; i++) c[i] = (unsigned char)(seed * 31 + i * 7);
}

static void p2p(char *sb, char *rb) {
    int right = (r + 1) % n, left = (r + n - 1) % n, partner = r ^ 1;
    MPI_Status st;
    MPI_Request q[2];
    int count;

    MPI_Send(sb, 1000, MPI_BYTE, right, 1, MPI_COMM_WORLD);
    MPI_Recv(rb, 4096, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK(count == 1000 && st.MPI_SOURCE == left);
    sum(rb, 1000);

    MPI_Isend(sb, 500, MPI_INT, left, 2, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(rb, 1000, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    sum(rb, 2000);

    MPI_Sendrecv(sb, 75, MPI_FLOAT, partner, 3, rb, 75, MPI_FLOAT, partner, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    sum(rb, 300);

    MPI_Send_init(sb, 50, MPI_BYTE, right, 4, MPI_COMM_WORLD, &q[0]);
    MPI_Recv_init(rb, 50, MPI_BYTE, left, 4, MPI_COMM_WORLD, &q[1]);
    for (int i = 0; i < 3; i++) {
        MPI_Startall(2, q);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        sum(rb, 50);
    }
    MPI_Request_free(&q[0]);
    MPI_Request_free(&q[1]);

    MPI_Isend(sb, 10, MPI_BYTE, r, 5, MPI_COMM_WORLD, &q[0]);
    MPI_Recv(rb, 10, MPI_BYTE, r, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    sum(rb, 10);

    MPI_Send(sb, 99, MPI_BYTE, MPI_PROC_NULL, 6, MPI_COMM_WORLD);
    MPI_Recv(rb, 99, MPI_BYTE, MPI_PROC_NULL, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    int flag = 0;
    MPI_Irecv(rb, 64, MPI_BYTE, left, 7, MPI_COMM_WORLD, &q[0]);
    MPI_Send(sb, 64, MPI_BYTE, right, 7, MPI_COMM_WORLD);
    while (!flag) MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE);
    sum(rb, 64);

    MPI_Irecv(rb, 16, MPI_BYTE, left, 8, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(sb, 16, MPI_BYTE, right, 8, MPI_COMM_WORLD, &q[1]);
    for (int i = 0, idx; i < 2; i++) MPI_Waitany(2, q, &idx, MPI_STATUS_IGNORE);
    sum(rb, 16);
}

static void collectives(char *sb, char *rb) {
    int counts[64], displs[64], rcounts[64], rdispls[64];
    MPI_Datatype stypes[64], rtypes[64];

    MPI_Alltoall(sb, 100, MPI_INT, rb, 100, MPI_INT, MPI_COMM_WORLD);
    sum(rb, 400 * n);
    fill(rb, 200 * n, r);
    MPI_Alltoall(MPI_IN_PLACE, 25, MPI_DOUBLE, rb, 25, MPI_DOUBLE, MPI_COMM_WORLD);
    sum(rb, 200 * n);
    memcpy(rb, sb, 1024);
    MPI_Bcast(rb, 1024, MPI_BYTE, 1, MPI_COMM_WORLD);
    sum(rb, 1024);
    MPI_Reduce(sb, rb, 16, MPI_DOUBLE, MPI_MAX, 2, MPI_COMM_WORLD);
    if (r == 2) sum(rb, 128);
    MPI_Allreduce(sb, rb, 8, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
    sum(rb, 32);
    MPI_Gather(sb, 4, MPI_INT, rb, 4, MPI_INT, 0, MPI_COMM_WORLD);
    if (r == 0) sum(rb, 16 * n);

    for (int i = 0, off = 0; i < n; i++) { counts[i] = i + 1; displs[i] = off; off += i + 1; }
    MPI_Gatherv(sb, r + 1, MPI_INT, rb, counts, displs, MPI_INT, 3, MPI_COMM_WORLD);
    if (r == 3) sum(rb, 4 * (displs[n - 1] + n));
    MPI_Scatter(sb, 2, MPI_INT, rb, 2, MPI_INT, 0, MPI_COMM_WORLD);
    sum(rb, 8);
    for (int i = 0, off = 0; i < n; i++) { counts[i] = 2 * i + 1; displs[i] = off; off += 2 * i + 1; }
    MPI_Scatterv(sb, counts, displs, MPI_BYTE, rb, 2 * r + 1, MPI_BYTE, 1, MPI_COMM_WORLD);
    sum(rb, 2 * r + 1);
    MPI_Allgather(sb, 3, MPI_INT, rb, 3, MPI_INT, MPI_COMM_WORLD);
    sum(rb, 12 * n);
    /* The same bytes described two ways: each type is looked up on its own. */
    MPI_Allgather(sb, 2, MPI_INT, rb, 8, MPI_BYTE, MPI_COMM_WORLD);
    sum(rb, 8 * n);
    for (int i = 0, off = 0; i < n; i++) { counts[i] = i + 1; displs[i] = off; off += i + 1; }
    MPI_Allgatherv(sb, r + 1, MPI_CHAR, rb, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
    sum(rb, displs[n - 1] + n);

    for (int j = 0, so = 0, ro = 0; j < n; j++) {
        counts[j] = r + 2 * j + 1; displs[j] = so; so += counts[j];
        rcounts[j] = j + 2 * r + 1; rdispls[j] = ro; ro += rcounts[j];
    }
    MPI_Alltoallv(sb, counts, displs, MPI_BYTE, rb, rcounts, rdispls, MPI_BYTE, MPI_COMM_WORLD);
    sum(rb, rdispls[n - 1] + rcounts[n - 1]);

    for (int j = 0, so = 0, ro = 0; j < n; j++) {
        counts[j] = j + 1; stypes[j] = j % 2 ? MPI_SHORT : MPI_INT; displs[j] = so;
        so += (j + 1) * (j % 2 ? 2 : 4);
        rcounts[j] = r + 1; rtypes[j] = r % 2 ? MPI_SHORT : MPI_INT; rdispls[j] = ro;
        ro += (r + 1) * (r % 2 ? 2 : 4);
    }
    MPI_Alltoallw(sb, counts, displs, stypes, rb, rcounts, rdispls, rtypes, MPI_COMM_WORLD);
    sum(rb, rdispls[n - 1] + (r + 1) * (r % 2 ? 2 : 4));

    MPI_Reduce_scatter_block(sb, rb, 5, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
    sum(rb, 20);
    for (int i = 0; i < n; i++) counts[i] = i + 1;
    MPI_Reduce_scatter(sb, rb, counts, MPI_INT, MPI_BAND, MPI_COMM_WORLD);
    sum(rb, 4 * (r + 1));
    MPI_Scan(sb, rb, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    sum(rb, 8);
    MPI_Exscan(sb, rb, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (r > 0) sum(rb, 8);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void subcomms(char *sb, char *rb) {
    MPI_Comm half, dup;
    int hr;
    MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
    MPI_Comm_rank(half, &hr);
    MPI_Alltoall(sb, 16, MPI_INT, rb, 16, MPI_INT, half);
    sum(rb, 64 * (n / 2));
    if (hr == 0) {
        MPI_Send(sb, 7, MPI_BYTE, 1, 9, half);
    } else if (hr == 1) {
        MPI_Request q;
        MPI_Irecv(rb, 7, MPI_BYTE, MPI_ANY_SOURCE, 9, half, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        sum(rb, 7);
    }
    MPI_Comm_free(&half);

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    memcpy(rb, sb, 32);
    MPI_Bcast(rb, 32, MPI_BYTE, 0, dup);
    sum(rb, 32);
    IBPROF_REGION("subcomms"); /* the dup is still alive here */
    MPI_Comm_free(&dup);
}

static void nonblocking(char *sb, char *rb) {
    MPI_Request q[3];
    MPI_Ialltoall(sb, 50, MPI_BYTE, rb, 50, MPI_BYTE, MPI_COMM_WORLD, &q[0]);
    char *b2 = rb + 50 * n;
    memcpy(b2, sb, 77);
    MPI_Ibcast(b2, 77, MPI_BYTE, 3, MPI_COMM_WORLD, &q[1]);
    MPI_Iallreduce(sb, b2 + 80, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &q[2]);
    MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    sum(rb, 50 * n + 77 + 3 + 24);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    CHECK(n % 2 == 0 && n <= 64);
    size_t len = 1 << 20;
    char *sb = malloc(len), *rb = malloc(len);
    fill(sb, len, r);

    p2p(sb, rb);
    IBPROF_REGION("p2p");
    collectives(sb, rb);
    IBPROF_REGION("collectives");
    subcomms(sb, rb);
    nonblocking(sb, rb);
    IBPROF_REGION("nonblocking");

    MPI_Pcontrol(0);
    MPI_Alltoall(sb, 1000, MPI_INT, rb, 1000, MPI_INT, MPI_COMM_WORLD);
    MPI_Sendrecv(sb, 5, MPI_BYTE, (r + 1) % n, 10, rb, 5, MPI_BYTE, (r + n - 1) % n, 10, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Pcontrol(1);

    unsigned long long all[64];
    MPI_Gather(&checksum, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (r == 0)
        for (int i = 0; i < n; i++) printf("checksum %d %llx\n", i, all[i]);
    free(sb);
    free(rb);
    MPI_Finalize();
    return 0;
}
