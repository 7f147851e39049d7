/* A PERUSE test double: the PERUSE entry points of Open MPI's peruse.h, knowing one event,
 * PERUSE_OPENIB_SEND, whose registered callback (libibprof's real one) it drives with
 * ibprof_openib_event_t records, as a patched openib BTL would.
 *
 * It also interposes PMPI_Alltoall, PMPI_Bcast and PMPI_Barrier, which libibprof reaches with
 * dlsym(RTLD_NEXT): inside them it reports the InfiniBand transfers those collectives would make,
 * then calls the real MPI. Local ports: LID 0x11 and 0x21 (see the fake sysfs of the test).
 *   Alltoall: to each other rank p, SEND from 0x11 to 0x100+p of sendcount*size bytes,
 *             and RDMA_READ by 0x21 from 0x200+p of 7 bytes.
 *   Bcast:    at the root, RDMA_WRITE from 0x21 to 0x100+p of count*size bytes.
 *   Barrier:  SEND of 1 byte from 0x11 to 0x300.
 * peruse_double_fire() reports a record from outside any collective. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <string.h>

#include "ibprof.h"

typedef void *peruse_event_h;
typedef struct {
    MPI_Comm comm;
    void *buf;
    int count;
    MPI_Datatype datatype;
    int peer;
    int tag;
    int operation;
} peruse_comm_spec_t;
typedef int(peruse_comm_callback_f)(peruse_event_h, MPI_Aint, peruse_comm_spec_t *, void *);

#define OPENIB_EVENT 4242
static peruse_comm_callback_f *callback;
static void *callback_param;
static int active;
static MPI_Aint next_id;

int PERUSE_Init(void) { return 0; }

int PERUSE_Query_event(const char *name, int *event) {
    if (strcmp(name, "PERUSE_OPENIB_SEND") != 0) return -1;
    *event = OPENIB_EVENT;
    return 0;
}

int PERUSE_Event_comm_register(int event, MPI_Comm comm, peruse_comm_callback_f *fn, void *param,
                               peruse_event_h *handle) {
    (void)comm;
    if (event != OPENIB_EVENT) return -1;
    callback = fn;
    callback_param = param;
    *handle = &callback;
    return 0;
}

int PERUSE_Event_activate(peruse_event_h h) { active = (h == &callback); return active ? 0 : -1; }
int PERUSE_Event_deactivate(peruse_event_h h) { (void)h; active = 0; return 0; }
int PERUSE_Event_release(peruse_event_h *h) { *h = 0; callback = 0; return 0; }

void peruse_double_fire(int src, int dst, int kind, unsigned long long bytes) {
    if (!active || !callback) return;
    ibprof_openib_event_t ev = {(uint16_t)src, (uint16_t)dst, (uint32_t)kind, bytes};
    peruse_comm_spec_t spec = {MPI_COMM_WORLD, &ev, 1, MPI_BYTE, -1, 0, 0};
    callback(&callback, next_id++, &spec, callback_param);
}

typedef int (*alltoall_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
typedef int (*bcast_fn)(void *, int, MPI_Datatype, int, MPI_Comm);
typedef int (*barrier_fn)(MPI_Comm);
#define REAL(name, type)   \
    static type real;      \
    if (!real) real = (type)dlsym(RTLD_NEXT, #name)

int PMPI_Alltoall(const void *sb, int sc, MPI_Datatype st, void *rb, int rc, MPI_Datatype rt, MPI_Comm comm) {
    REAL(PMPI_Alltoall, alltoall_fn);
    int me, n, size;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    MPI_Type_size(st, &size);
    for (int p = 0; p < n; p++) {
        if (p == me) continue;
        peruse_double_fire(0x11, 0x100 + p, IBPROF_OPENIB_SEND, (unsigned long long)sc * size);
        peruse_double_fire(0x21, 0x200 + p, IBPROF_OPENIB_RDMA_READ, 7);
    }
    return real(sb, sc, st, rb, rc, rt, comm);
}

int PMPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
    REAL(PMPI_Bcast, bcast_fn);
    int me, n, size;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    MPI_Type_size(dt, &size);
    if (me == root)
        for (int p = 0; p < n; p++)
            if (p != me) peruse_double_fire(0x21, 0x100 + p, IBPROF_OPENIB_RDMA_WRITE, (unsigned long long)count * size);
    return real(buf, count, dt, root, comm);
}

int PMPI_Barrier(MPI_Comm comm) {
    REAL(PMPI_Barrier, barrier_fn);
    peruse_double_fire(0x11, 0x300, IBPROF_OPENIB_SEND, 1);
    return real(comm);
}
