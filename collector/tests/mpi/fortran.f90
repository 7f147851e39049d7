! Known message sizes from Fortran (use mpi). Regions: IBPROF_REGION('p2p') (the program is
! linked with libibprof), then MPI_Pcontrol(1), then MPI_Finalize.
program fortran_exact
  use mpi
  implicit none
  integer :: ierr, r, n, right, left, req, st(MPI_STATUS_SIZE)
  integer, allocatable :: a(:), b(:)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, r, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  allocate(a(1000 * n), b(1000 * n))
  a = r
  b = 0
  right = mod(r + 1, n)
  left = mod(r + n - 1, n)

  ! 100 integers to the right, received with MPI_ANY_SOURCE and a non-blocking receive
  call MPI_Irecv(b, 1000, MPI_INTEGER, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, req, ierr)
  call MPI_Send(a, 100, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  if (b(1) /= left) call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  ! 30 integers to the left, blocking receive with a status
  call MPI_Isend(a, 30, MPI_INTEGER, left, 2, MPI_COMM_WORLD, req, ierr)
  call MPI_Recv(b, 30, MPI_INTEGER, right, 2, MPI_COMM_WORLD, st, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  if (st(MPI_SOURCE) /= right) call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  call IBPROF_REGION('p2p')

  call MPI_Alltoall(a, 10, MPI_INTEGER, b, 10, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Alltoall(MPI_IN_PLACE, 5, MPI_INTEGER, b, 5, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(a, 64, MPI_INTEGER, 2, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(a, b, 3, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  call MPI_Pcontrol(1)
  call MPI_Finalize(ierr)
end program fortran_exact
