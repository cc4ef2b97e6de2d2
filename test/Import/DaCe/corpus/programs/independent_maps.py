"""Two independent GPU maps in one state, for stream concurrency: X and Y
are each updated by a map whose element runs K iterations of an FMA chain.
The chain is a `for k in range(K)` loop inside an explicit Python tasklet
(DaCe keeps it in the tasklet's code and compiles it as a C++ loop; a loop
in the map body outside a tasklet would make a nested SDFG instead). N and
K are symbols, so a GPU test can pick sizes that run about 1 ms per map on
an H100 (few threads, many iterations: the maps must not fill the GPU to
run side by side); make_inputs is small. The arrays are GPU_Global
arguments, as a GT4Py or CuPy caller passes device arrays: the state is the
two maps alone, with no copies around them."""
import dace
import numpy as np

N = dace.symbol('N')
K = dace.symbol('K')


@dace.program
def independent_maps(X: dace.float32[N] @ dace.StorageType.GPU_Global,
                     Y: dace.float32[N] @ dace.StorageType.GPU_Global):
    for i in dace.map[0:N]:
        with dace.tasklet:
            xin << X[i]
            xout >> X[i]
            x = xin
            for k in range(K):
                x = x * dace.float32(0.999) + dace.float32(0.001)
            xout = x
    for i in dace.map[0:N]:
        with dace.tasklet:
            yin << Y[i]
            yout >> Y[i]
            y = yin
            for k in range(K):
                y = y * dace.float32(0.998) + dace.float32(0.002)
            yout = y


program = independent_maps
OUTPUTS = ['X', 'Y']
TOLERANCE = dict(rtol=1e-5, atol=1e-5)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(max_gpu_maps_per_state=2, nested_sdfgs=0)


def make_inputs(rng):
    n, k = 512, 50
    return dict(X=rng.standard_normal(n).astype(np.float32),
                Y=rng.standard_normal(n).astype(np.float32), N=n, K=k)


def reference(inp):
    x, y = inp['X'].copy(), inp['Y'].copy()
    for _ in range(inp['K']):
        x = x * np.float32(0.999) + np.float32(0.001)
        y = y * np.float32(0.998) + np.float32(0.002)
    return dict(X=x, Y=y)
