"""An `if` and a loop inside a NestedSDFG inside a GPU map: the body of
`for i in dace.map[0:N]` is control flow outside any tasklet, so DaCe makes
it a NestedSDFG (a ConditionalBlock whose condition reads the scalar `x`, a
LoopRegion `for k in range(K)` in one branch, an interstate assignment) in
the GPU_Device map; on the GPU it is inlined into the kernel."""
import dace
import numpy as np

N = dace.symbol('N')
K = dace.symbol('K')


@dace.program
def nested_branch_kernel(X: dace.float32[N], Y: dace.float32[N]):
    for i in dace.map[0:N]:
        x = X[i]
        if x > 0.0:
            for k in range(K):
                x = x * np.float32(0.9) + np.float32(0.01)
        else:
            x = -x * np.float32(2.0)
        Y[i] = x


program = nested_branch_kernel
OUTPUTS = ['Y']
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(nested_sdfgs=1, LoopRegion=1, ConditionalBlock=1, max_gpu_maps_per_state=1)


def make_inputs(rng):
    n = 300
    return dict(X=rng.standard_normal(n).astype(np.float32), Y=np.zeros(n, np.float32), N=n, K=7)


def reference(inp):
    X = inp['X']
    Y = np.empty_like(X)
    for i, x in enumerate(X):
        if x > 0.0:
            for _ in range(inp['K']):
                x = x * np.float32(0.9) + np.float32(0.01)
        else:
            x = -x * np.float32(2.0)
        Y[i] = x
    return dict(Y=Y)
