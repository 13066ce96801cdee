"""Host callbacks (side effects): jax.debug.callback, jax.debug.print, an
ordered io_callback (a token threaded through the program), an io_callback
inside a loop, and pure_callback."""
from _common import *
from jax.experimental import io_callback

LOG = []


def _record(x):
    LOG.append(x)


def debug_callbacks(x):
    jax.debug.callback(_record, x)
    jax.debug.print("sum {}", jnp.sum(x))
    return x * 2


def ordered_io(x):
    y = io_callback(lambda a: np.asarray(a) + 1, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=True)
    z = io_callback(lambda a: np.asarray(a) * 2, jax.ShapeDtypeStruct(x.shape, x.dtype), y, ordered=True)
    return z


def io_in_loop(x):
    def body(i, c):
        io_callback(_record, None, i, ordered=True)
        return c + 1.0
    return jax.lax.fori_loop(0, 3, body, x)


def pure_cb(x):
    y = jax.pure_callback(lambda a: np.sin(a), jax.ShapeDtypeStruct(x.shape, x.dtype), x)
    return y + 1


def compile_all():
    compile_jit(debug_callbacks, spec(8))
    compile_jit(ordered_io, spec(8))
    compile_jit(io_in_loop, spec(4))
    compile_jit(pure_cb, spec(8))
