"""Copies between storages with subsets (AccessNode -> AccessNode edges):
host->device copy-in and device->host copy-out (apply_gpu_transformations),
device->device copies of a shifted sub-block (B[1:M, 2:N] = A[0:M-1, 0:N-2]),
of a fixed 4x4 block (D = A[2:6, 3:7]), and into a column-major (Fortran
strides [1, M]) array F = A, whose copy has equal subsets but different
strides."""
import dace
import numpy as np

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def copies(A: dace.float64[M, N], B: dace.float64[M, N], D: dace.float64[4, 4],
           F: dace.data.Array(dace.float64, (M, N), strides=(1, M))):
    B[1:M, 2:N] = A[0:M - 1, 0:N - 2]
    D[:] = A[2:6, 3:7]
    F[:] = A


program = copies
OUTPUTS = ['B', 'D', 'F']
TOLERANCE = dict(rtol=0, atol=0)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(copies=6)


def make_inputs(rng):
    m, n = 9, 12
    return dict(A=rng.standard_normal((m, n)), B=np.full((m, n), -1.0), D=np.zeros((4, 4)),
                F=np.asfortranarray(np.zeros((m, n))), M=m, N=n)


def reference(inp):
    A = inp['A']
    m, n = A.shape
    B = inp['B'].copy()
    B[1:m, 2:n] = A[0:m - 1, 0:n - 2]
    return dict(B=B, D=A[2:6, 3:7].copy(), F=A.copy())
