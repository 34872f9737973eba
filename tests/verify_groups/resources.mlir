func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F0000004"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04000000000080ZF00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x030000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: true
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x00000000"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x08000000AABB"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04\00000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x04\q0000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x0400000000
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    foo: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    arith: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    arith: {
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob2: "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040",
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  external_resources: {
    foo: { x: "y" }
  },
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_stuff: {
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources {
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040",
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      "blob1": "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: "x"
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
      blob2: "0x040000000000803F00000040"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
  }
  external_resources: {
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  external_resources: {
    foo: "x"
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  external_resources: {
    foo: { a: true, b: "s", c: "0x0400000001" }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  external_resources: {
    foo: { a: 12 }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  "dialect_resources": {
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      7: "0x04000000"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    linalg: {
      x: "0x04000000"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#

#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
func.func @g() { return }
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000041"
    }
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  key
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: "value"
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    10
  }
#-}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    entry "value"
  }
#-}
// -----
// verdict-only: mlir-opt names the token it expected, bufferlog the one it found
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @g() {
{-#
#-}
  return
}
// -----
func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040" // } a comment #-}
    }
  }
#-}
