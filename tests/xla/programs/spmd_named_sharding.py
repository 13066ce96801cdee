"""SPMD over 8 host devices with NamedSharding: a data- and model-parallel
MLP training step (donated, sharded parameters), sharding constraints in the
middle of the program, and a resharding between two layouts."""
from _common import *


def mlp_loss(params, x, y):
    w1, w2 = params
    h = jax.nn.gelu(x @ w1)
    return jnp.mean((h @ w2 - y) ** 2)


def spmd_train_step(params, x, y):
    l, g = jax.value_and_grad(mlp_loss)(params, x, y)
    return jax.tree.map(lambda p, d: p - 0.01 * d, params, g), l


def constrained(x, w):
    mesh = mesh_4x2()
    h = x @ w
    h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P("data", None)))
    h = jnp.exp(h)
    h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P(None, "model")))
    return jnp.sum(h, axis=0)


def reshard(x):
    return x.T * 2.0


def compile_all():
    mesh = mesh_4x2()
    s = lambda *spec_: NamedSharding(mesh, P(*spec_))
    params = (spec(16, 32, sharding=s(None, "model")), spec(32, 8, sharding=s("model", None)))
    x = spec(16, 16, sharding=s("data", None))
    y = spec(16, 8, sharding=s("data", None))
    compile_jit(spmd_train_step, params, x, y, donate_argnums=(0,),
                out_shardings=((s(None, "model"), s("model", None)), s()))
    compile_jit(constrained, spec(16, 16, sharding=s("data", "model")), spec(16, 8, sharding=s()))
    compile_jit(reshard, spec(16, 8, sharding=s("data", "model")), out_shardings=s("model", "data"))
