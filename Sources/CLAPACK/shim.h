// Declarations of the Fortran LAPACK and BLAS routines Altimetry uses.
//
// Debian ships no lapacke.h or cblas.h for the reference libraries, so the Fortran symbols are declared here.
// Fortran passes every argument by reference; each CHARACTER argument adds a hidden trailing length argument
// (size_t with gfortran), which the wrapper passes as 1.
#ifndef ALTIMETRY_CLAPACK_SHIM_H
#define ALTIMETRY_CLAPACK_SHIM_H

#include <stddef.h>

// Cholesky factorisation of a symmetric positive definite matrix, and solves with it.
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info, size_t uplo_len);

// General solve by LU with partial pivoting.
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b, const int *ldb,
            int *info);

// QR factorisation.
void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);

// BLAS level 3: triangular solve, general product, symmetric rank-k update.
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m, const int *n,
            const double *alpha, const double *a, const int *lda, double *b, const int *ldb,
            size_t side_len, size_t uplo_len, size_t transa_len, size_t diag_len);
void dgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const double *alpha, const double *a, const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc, size_t transa_len, size_t transb_len);
void dsyrk_(const char *uplo, const char *trans, const int *n, const int *k, const double *alpha,
            const double *a, const int *lda, const double *beta, double *c, const int *ldc,
            size_t uplo_len, size_t trans_len);

#endif
