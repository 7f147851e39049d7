//! Point-to-point transfers of byte buffers of any size, in messages of at most 1 GiB (an MPI
//! count is an `int`): the profile writers' sections.

use std::ffi::{c_int, c_void};

use crate::ffi::Handle;
use crate::state::State;

const CHUNK: usize = 1 << 30;

/// Sends `bytes` to rank `to` in messages of at most 1 GiB (the count is an `int`).
pub(crate) fn send_chunks(st: &State, comm: Handle, to: c_int, tag: c_int, bytes: &[u8]) {
    for chunk in bytes.chunks(CHUNK) {
        // SAFETY: the chunk is readable for its length, which fits an int.
        unsafe {
            (st.mpi.f.send)(
                chunk.as_ptr() as *const c_void,
                chunk.len() as c_int,
                st.mpi.c.byte,
                to,
                tag,
                comm,
            );
        }
    }
}

/// Receives exactly `buf.len()` bytes from rank `from`, sent by [`send_chunks`].
pub(crate) fn recv_chunks(st: &State, comm: Handle, from: c_int, tag: c_int, buf: &mut [u8]) {
    let status = st.mpi.c.status_ignore as *mut c_void;
    for chunk in buf.chunks_mut(CHUNK) {
        // SAFETY: the chunk is writable for its length, which fits an int.
        unsafe {
            (st.mpi.f.recv)(
                chunk.as_mut_ptr() as *mut c_void,
                chunk.len() as c_int,
                st.mpi.c.byte,
                from,
                tag,
                comm,
                status,
            );
        }
    }
}
