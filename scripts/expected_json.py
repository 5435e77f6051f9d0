"""The JSON encoding of arrays that the float16 oracle generators share: shape, dtype and the
values as JSON numbers, or "nan", "inf", "-inf"; "-0" marks a negative zero."""
import math

import numpy as np


def enc(a):
    def one(v):
        v = float(v)
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if v == 0 and math.copysign(1, v) < 0:
            return "-0"
        return v
    a = np.asarray(a)
    return {"shape": list(a.shape), "dtype": str(a.dtype), "data": [one(v) for v in a.ravel()]}
