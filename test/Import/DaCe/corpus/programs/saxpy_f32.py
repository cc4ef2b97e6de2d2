"""float32 element-wise kernel with an explicit dace.map and a single tasklet
(Y[i] = a * X[i] + Y[i], Y read and written): one GPU_Device map whose
tasklet reads and writes the same array, float32 connectors and a float32
Scalar argument."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def saxpy_f32(X: dace.float32[N], Y: dace.float32[N], a: dace.float32):
    for i in dace.map[0:N]:
        Y[i] = a * X[i] + Y[i]


program = saxpy_f32
OUTPUTS = ['Y']
TOLERANCE = dict(rtol=1e-6, atol=1e-6)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(maps='GPU_Device')


def make_inputs(rng):
    n = 777
    return dict(X=rng.standard_normal(n).astype(np.float32),
                Y=rng.standard_normal(n).astype(np.float32), a=np.float32(0.25), N=n)


def reference(inp):
    return dict(Y=(inp['a'] * inp['X'] + inp['Y']).astype(np.float32))
