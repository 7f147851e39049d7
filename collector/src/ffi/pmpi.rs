//! The `PMPI_*` entry points of the running MPI, resolved once with `dlsym(RTLD_NEXT)`.
//!
//! Signatures use [`Handle`] for by-value handles and `*mut c_void` for everything whose layout
//! depends on the ABI (arrays of handles, out-handles, statuses). See [`super::abi`].

use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::OnceLock;

use super::abi::{Abi, Consts, Handle, dlsym_next};

type I = c_int;
type H = Handle;
type P = *const c_void;
type M = *mut c_void;
type IP = *const c_int;
type IO = *mut c_int;

/// Attribute copy callback: `(oldcomm, keyval, extra, attr_in, attr_out, flag)`.
pub type CopyFn = unsafe extern "C" fn(H, I, M, M, M, IO) -> I;
/// Attribute delete callback: `(comm, keyval, attr, extra)`.
pub type DeleteFn = unsafe extern "C" fn(H, I, M, M) -> I;

macro_rules! pmpi_table {
    ($( $field:ident = $sym:literal ($($arg:ty),*); )*) => {
        /// Function pointers to the MPI library's profiling interface.
        pub struct Pmpi {
            $( pub $field: unsafe extern "C" fn($($arg),*) -> c_int, )*
        }

        impl Pmpi {
            fn resolve() -> Result<Pmpi, String> {
                Ok(Pmpi {
                    $( $field: {
                        let name = CStr::from_bytes_with_nul(concat!($sym, "\0").as_bytes())
                            .map_err(|e| e.to_string())?;
                        let p = dlsym_next(name);
                        if p.is_null() {
                            return Err(format!("{} not found in the MPI library", $sym));
                        }
                        // SAFETY: the symbol is the MPI function of that name, whose C
                        // signature the declaration above follows (see the module doc).
                        unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($arg),*) -> c_int>(p) }
                    }, )*
                })
            }
        }
    };
}

pmpi_table! {
    init = "PMPI_Init" (*mut c_int, *mut *mut *mut c_char);
    init_thread = "PMPI_Init_thread" (*mut c_int, *mut *mut *mut c_char, I, IO);
    finalize = "PMPI_Finalize" ();
    initialized = "PMPI_Initialized" (IO);
    get_library_version = "PMPI_Get_library_version" (*mut c_char, IO);
    abort = "PMPI_Abort" (H, I);

    comm_rank = "PMPI_Comm_rank" (H, IO);
    comm_size = "PMPI_Comm_size" (H, IO);
    comm_test_inter = "PMPI_Comm_test_inter" (H, IO);
    comm_group = "PMPI_Comm_group" (H, M);
    comm_remote_group = "PMPI_Comm_remote_group" (H, M);
    comm_dup = "PMPI_Comm_dup" (H, M);
    comm_free = "PMPI_Comm_free" (M);
    comm_create_keyval = "PMPI_Comm_create_keyval" (CopyFn, DeleteFn, IO, M);
    comm_get_attr = "PMPI_Comm_get_attr" (H, I, M, IO);
    comm_set_attr = "PMPI_Comm_set_attr" (H, I, M);
    group_size = "PMPI_Group_size" (H, IO);
    group_translate_ranks = "PMPI_Group_translate_ranks" (H, I, IP, H, IO);
    group_free = "PMPI_Group_free" (M);
    type_size_x = "PMPI_Type_size_x" (H, *mut i64);
    get_elements_x = "PMPI_Get_elements_x" (P, H, *mut i64);

    send = "PMPI_Send" (P, I, H, I, I, H);
    bsend = "PMPI_Bsend" (P, I, H, I, I, H);
    ssend = "PMPI_Ssend" (P, I, H, I, I, H);
    rsend = "PMPI_Rsend" (P, I, H, I, I, H);
    isend = "PMPI_Isend" (P, I, H, I, I, H, M);
    ibsend = "PMPI_Ibsend" (P, I, H, I, I, H, M);
    issend = "PMPI_Issend" (P, I, H, I, I, H, M);
    irsend = "PMPI_Irsend" (P, I, H, I, I, H, M);
    send_init = "PMPI_Send_init" (P, I, H, I, I, H, M);
    bsend_init = "PMPI_Bsend_init" (P, I, H, I, I, H, M);
    ssend_init = "PMPI_Ssend_init" (P, I, H, I, I, H, M);
    rsend_init = "PMPI_Rsend_init" (P, I, H, I, I, H, M);
    recv = "PMPI_Recv" (M, I, H, I, I, H, M);
    irecv = "PMPI_Irecv" (M, I, H, I, I, H, M);
    recv_init = "PMPI_Recv_init" (M, I, H, I, I, H, M);
    sendrecv = "PMPI_Sendrecv" (P, I, H, I, I, M, I, H, I, I, H, M);
    sendrecv_replace = "PMPI_Sendrecv_replace" (M, I, H, I, I, I, I, H, M);
    start = "PMPI_Start" (M);
    startall = "PMPI_Startall" (I, M);
    wait = "PMPI_Wait" (M, M);
    waitall = "PMPI_Waitall" (I, M, M);
    waitany = "PMPI_Waitany" (I, M, IO, M);
    waitsome = "PMPI_Waitsome" (I, M, IO, IO, M);
    test = "PMPI_Test" (M, IO, M);
    testall = "PMPI_Testall" (I, M, IO, M);
    testany = "PMPI_Testany" (I, M, IO, IO, M);
    testsome = "PMPI_Testsome" (I, M, IO, IO, M);
    request_free = "PMPI_Request_free" (M);

    barrier = "PMPI_Barrier" (H);
    bcast = "PMPI_Bcast" (M, I, H, I, H);
    reduce = "PMPI_Reduce" (P, M, I, H, H, I, H);
    allreduce = "PMPI_Allreduce" (P, M, I, H, H, H);
    gather = "PMPI_Gather" (P, I, H, M, I, H, I, H);
    gatherv = "PMPI_Gatherv" (P, I, H, M, IP, IP, H, I, H);
    scatter = "PMPI_Scatter" (P, I, H, M, I, H, I, H);
    scatterv = "PMPI_Scatterv" (P, IP, IP, H, M, I, H, I, H);
    allgather = "PMPI_Allgather" (P, I, H, M, I, H, H);
    allgatherv = "PMPI_Allgatherv" (P, I, H, M, IP, IP, H, H);
    alltoall = "PMPI_Alltoall" (P, I, H, M, I, H, H);
    alltoallv = "PMPI_Alltoallv" (P, IP, IP, H, M, IP, IP, H, H);
    alltoallw = "PMPI_Alltoallw" (P, IP, IP, P, M, IP, IP, P, H);
    reduce_scatter = "PMPI_Reduce_scatter" (P, M, IP, H, H, H);
    reduce_scatter_block = "PMPI_Reduce_scatter_block" (P, M, I, H, H, H);
    scan = "PMPI_Scan" (P, M, I, H, H, H);
    exscan = "PMPI_Exscan" (P, M, I, H, H, H);

    ibarrier = "PMPI_Ibarrier" (H, M);
    ibcast = "PMPI_Ibcast" (M, I, H, I, H, M);
    ireduce = "PMPI_Ireduce" (P, M, I, H, H, I, H, M);
    iallreduce = "PMPI_Iallreduce" (P, M, I, H, H, H, M);
    igather = "PMPI_Igather" (P, I, H, M, I, H, I, H, M);
    igatherv = "PMPI_Igatherv" (P, I, H, M, IP, IP, H, I, H, M);
    iscatter = "PMPI_Iscatter" (P, I, H, M, I, H, I, H, M);
    iscatterv = "PMPI_Iscatterv" (P, IP, IP, H, M, I, H, I, H, M);
    iallgather = "PMPI_Iallgather" (P, I, H, M, I, H, H, M);
    iallgatherv = "PMPI_Iallgatherv" (P, I, H, M, IP, IP, H, H, M);
    ialltoall = "PMPI_Ialltoall" (P, I, H, M, I, H, H, M);
    ialltoallv = "PMPI_Ialltoallv" (P, IP, IP, H, M, IP, IP, H, H, M);
    ialltoallw = "PMPI_Ialltoallw" (P, IP, IP, P, M, IP, IP, P, H, M);
    ireduce_scatter = "PMPI_Ireduce_scatter" (P, M, IP, H, H, H, M);
    ireduce_scatter_block = "PMPI_Ireduce_scatter_block" (P, M, I, H, H, H, M);
    iscan = "PMPI_Iscan" (P, M, I, H, H, H, M);
    iexscan = "PMPI_Iexscan" (P, M, I, H, H, H, M);
}

/// Entry points that do not return `int`, or are variadic, or that an MPI may lack.
pub struct Extra {
    /// `int PMPI_Pcontrol(int level, ...)`.
    pub pcontrol: Option<unsafe extern "C" fn(c_int, ...) -> c_int>,
    /// `MPI_Comm PMPI_Comm_f2c(MPI_Fint)` and friends: the Fortran handle conversions.
    pub comm_f2c: Option<unsafe extern "C" fn(c_int) -> Handle>,
    pub type_f2c: Option<unsafe extern "C" fn(c_int) -> Handle>,
    pub request_f2c: Option<unsafe extern "C" fn(c_int) -> Handle>,
}

impl Extra {
    fn resolve() -> Extra {
        // SAFETY: each symbol, when present, is the MPI function with the C signature named.
        unsafe {
            Extra {
                pcontrol: std::mem::transmute::<*mut c_void, Option<_>>(dlsym_next(c"PMPI_Pcontrol")),
                comm_f2c: std::mem::transmute::<*mut c_void, Option<_>>(dlsym_next(c"PMPI_Comm_f2c")),
                type_f2c: std::mem::transmute::<*mut c_void, Option<_>>(dlsym_next(c"PMPI_Type_f2c")),
                request_f2c: std::mem::transmute::<*mut c_void, Option<_>>(dlsym_next(c"PMPI_Request_f2c")),
            }
        }
    }
}

/// The running MPI: its ABI constants and its PMPI entry points.
pub struct Mpi {
    pub c: Consts,
    pub f: Pmpi,
    pub x: Extra,
}

impl Mpi {
    #[inline(always)]
    pub fn abi(&self) -> Abi {
        self.c.abi
    }
}

/// In a static rather than behind a pointer, so that a wrapper reaches a `PMPI_*` entry with
/// loads addressed from the code alone.
static MPI: OnceLock<Mpi> = OnceLock::new();

/// The running MPI, resolved on first use (the first MPI call of the process).
///
/// If the MPI library lacks a `PMPI_*` entry we need, no call can be forwarded; we say so and
/// abort, because returning would leave the application without its MPI.
#[inline(always)]
pub(crate) fn mpi() -> &'static Mpi {
    match MPI.get() {
        Some(m) => m,
        None => mpi_slow(),
    }
}

/// The running MPI if it is already resolved.
#[inline(always)]
pub(crate) fn mpi_resolved() -> Option<&'static Mpi> {
    MPI.get()
}

#[cold]
fn mpi_slow() -> &'static Mpi {
    MPI.get_or_init(|| {
        let abi = Abi::detect();
        let made = Consts::for_abi(abi).and_then(|c| Ok(Mpi { c, f: Pmpi::resolve()?, x: Extra::resolve() }));
        made.unwrap_or_else(|e| {
            eprintln!("ibprof: cannot interpose MPI ({}): {e}", abi.name());
            std::process::abort();
        })
    })
}
