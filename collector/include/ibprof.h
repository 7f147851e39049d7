/* ibprof.h: mark code regions for libibprof, the shoal collector.
 *
 *   #include <ibprof.h>
 *   ...
 *   IBPROF_REGION("exchange");   // cumulative dump of all counters, named "exchange"
 *
 * Each region is a cumulative dump since MPI_Init; the dump at MPI_Finalize is the last one.
 * MPI_Pcontrol(1) marks a region too (named "MPI_Pcontrol(1)"), and MPI_Pcontrol(0) pauses
 * counting until the next MPI_Pcontrol(level >= 1).
 *
 * ibprof_region is declared weak: a program built with this header and run without the
 * collector (no LD_PRELOAD, not linked with -libprof) runs unchanged, and IBPROF_REGION does
 * nothing. With the collector preloaded or linked, it takes the dump.
 *
 * Fortran: CALL IBPROF_REGION('exchange') (symbol ibprof_region_, needs the collector loaded).
 */
#ifndef IBPROF_H
#define IBPROF_H

#define IBPROF_FORMAT_VERSION 1

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Takes a cumulative dump named `name` (may be NULL). Safe from any thread after MPI_Init. */
void ibprof_region(const char *name) __attribute__((weak));

/* For MPI libraries that provide the PERUSE event "PERUSE_OPENIB_SEND" (as the thesis's patched
 * openib BTL did): the event's peruse_comm_spec_t.buf points at one of these records, one per
 * InfiniBand transfer, reported by the process that initiated it. SEND and RDMA_WRITE move data
 * from src_lid (a local port) to dst_lid; RDMA_READ pulls data from dst_lid to src_lid. */
typedef struct ibprof_openib_event {
    uint16_t src_lid; /* LID of the local port that initiated the transfer */
    uint16_t dst_lid; /* the remote LID */
    uint32_t kind;    /* IBPROF_OPENIB_SEND, IBPROF_OPENIB_RDMA_WRITE or IBPROF_OPENIB_RDMA_READ */
    uint64_t bytes;
} ibprof_openib_event_t;

#define IBPROF_OPENIB_SEND 0
#define IBPROF_OPENIB_RDMA_WRITE 1
#define IBPROF_OPENIB_RDMA_READ 2

#ifdef __cplusplus
}
#endif

#define IBPROF_REGION(name)                 \
    do {                                    \
        if (ibprof_region) ibprof_region(name); \
    } while (0)

#endif /* IBPROF_H */
