"""Write-conflict resolution: maps where many threads update the same
element, giving memlets with wcr: out[i % 4] += x[i] (sum, a symbolic
Mod(i, 4) subset), an explicit tasklet with a max-wcr output
(mx(1, lambda a, b: max(a, b))[0]) and an int32 count (cnt[1 if x > 0 else 0] += 1:
a dynamic wcr memlet over cnt[0:2], indexed in the tasklet). The outputs start non-zero: wcr accumulates into
them."""
import dace
import numpy as np

N = dace.symbol('N')


@dace.program
def wcr_histogram(x: dace.float64[N], out: dace.float64[4], mx: dace.float64[1],
                  cnt: dace.int32[2]):
    for i in dace.map[0:N]:
        out[i % 4] += x[i]
    for i in dace.map[0:N]:
        with dace.tasklet:
            v << x[i]
            m >> mx(1, lambda a, b: max(a, b))[0]
            m = v
    for i in dace.map[0:N]:
        with dace.tasklet:
            v << x[i]
            c >> cnt(-1, lambda a, b: a + b)[:]
            c[1 if v > 0 else 0] = 1


program = wcr_histogram
OUTPUTS = ['out', 'mx', 'cnt']
TOLERANCE = dict(rtol=1e-10, atol=1e-10)
# Checked by generate.py against corpus_lib.summarize().
EXPECT = dict(wcr_memlets=3)


def make_inputs(rng):
    n = 1000
    # Multiples of 1/8: the sums are exact in any order.
    return dict(x=rng.integers(-400, 400, n) / 8.0, out=np.array([1.0, 2.0, 3.0, 4.0]),
                mx=np.array([-1e9]), cnt=np.array([10, 20], np.int32), N=n)


def reference(inp):
    x = inp['x']
    out = inp['out'].copy()
    for r in range(4):
        out[r] += x[r::4].sum()
    mx = np.array([max(inp['mx'][0], x.max())])
    cnt = inp['cnt'] + np.array([(x <= 0).sum(), (x > 0).sum()], np.int32)
    return dict(out=out, mx=mx, cnt=cnt)
