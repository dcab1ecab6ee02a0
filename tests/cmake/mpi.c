/* tests/cmake/mpi.c - libfilaments-mpi through CMake's filaments::mpi: its
 * header, MPI's, and both libraries, in the order f_mpi_initialize(3)
 * asks for.  Exits 0 when every call succeeds. */
#include <filaments-mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int level, rc = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &level) != MPI_SUCCESS)
        return 1;
    if (f_initialize(1) != F_OK || f_mpi_initialize() != F_OK || f_parallel() != F_OK ||
        f_mpi_finalize() != F_OK)
        rc = 1;
    f_finalize();
    MPI_Finalize();
    printf("filaments::mpi: check=%s\n", rc ? "FAILED" : "ok");
    return rc;
}
