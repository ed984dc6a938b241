// An ag.cond given to the CPU pipeline without --agc-to-scf first (see agc-cpu.mlir).
func.func @f(%c: i1, %x: tensor<f32>) -> tensor<f32> {
  %r = ag.cond %c : i1 -> (tensor<f32>) {
    ag.yield %x : tensor<f32>
  } else {
    ag.yield %x : tensor<f32>
  } loc("model.py":7:3)
  return %r : tensor<f32>
}
