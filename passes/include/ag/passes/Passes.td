//===- Passes.td - agc's passes --------------------------------------------===//
#ifndef AG_PASSES_PASSES_TD
#define AG_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerAgToSCF : Pass<"ag-to-scf"> {
  let summary = "Lower ag.cond and ag.while_loop to scf.if and scf.while";
  let description = [{
    Staged control flow, once its carried values are fixed, is structured control flow:
    `ag.cond` becomes `scf.if`, `ag.while_loop` becomes `scf.while`, `ag.condition` and
    `ag.yield` become `scf.condition` and `scf.yield`. A 0-d `tensor<i1>` test is read
    with `tensor.extract` first.

    Before:
    ```mlir
    %r = ag.cond %c : tensor<i1> -> (tensor<i32>) {
      ag.yield %a : tensor<i32>
    } else {
      ag.yield %b : tensor<i32>
    }
    ```
    After:
    ```mlir
    %t = tensor.extract %c[] : tensor<i1>
    %r = scf.if %t -> (tensor<i32>) {
      scf.yield %a : tensor<i32>
    } else {
      scf.yield %b : tensor<i32>
    }
    ```
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect"];
}


def ScalarizeCarried : Pass<"ag-scalarize-carried"> {
  let summary = "Carry 0-d tensors through scf.while and scf.if as scalars";
  let description = [{
    A Python scalar carried by a staged loop or `if` is a 0-d tensor; bufferized as such,
    every iteration would allocate, copy and free a buffer for it. This pass carries its
    element instead: the inits, yields and condition operands are read with
    `tensor.extract`, the block arguments and results take the element type, and their
    users get a `tensor.from_elements` of them. Run `canonicalize` after it: the
    extract/from_elements pairs fold away.
    Before:
    ```mlir
    %r = scf.if %c -> (tensor<i64>) {
      scf.yield %a : tensor<i64>
    } else {
      scf.yield %b : tensor<i64>
    }
    ```
    After:
    ```mlir
    %r0 = scf.if %c -> (i64) {
      %x = tensor.extract %a[] : tensor<i64>
      scf.yield %x : i64
    } else {
      %y = tensor.extract %b[] : tensor<i64>
      scf.yield %y : i64
    }
    %r = tensor.from_elements %r0 : tensor<i64>
    ```
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

def MatmulLoopOrder : Pass<"ag-matmul-loop-order"> {
  let summary = "Put the loops of linalg.matmul in the order (i, k, j)";
  let description = [{
    `linalg.matmul` iterates (i, j, k) with the reduction innermost; lowered to loops,
    its inner loop walks a column of B and does not vectorize. This pass rewrites
    `linalg.matmul` and `linalg.batch_matmul` as the equivalent `linalg.generic` with the
    loops ordered (i, k, j) (batch: (b, i, k, j)), so that the inner loop walks rows of B
    and of the result and LLVM vectorizes it. Every result element still adds its
    products in the order of k. The float multiply and add are marked `contract`: fused
    where the CPU has FMA, as the kernel of `ag-matmul-microkernel` (vector.fma) and
    TensorFlow's kernels fuse them, so that a matmul's edges round as its blocks do.
    With `reorder=false` (the GPU pipeline, whose parallel loops keep (i, j, k)) the loops
    keep their order and only the flags are set.
    Before:
    ```mlir
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
                  outs(%c : memref<4x16xf32>)
    ```
    After:
    ```mlir
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>,
                                     affine_map<(d0, d1, d2) -> (d1, d2)>,
                                     affine_map<(d0, d1, d2) -> (d0, d2)>],
                    iterator_types = ["parallel", "reduction", "parallel"]}
        ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y fastmath<contract> : f32
      %s = arith.addf %acc, %p fastmath<contract> : f32
      linalg.yield %s : f32
    }
    ```
  }];
  let options = [
    Option<"reorder", "reorder", "bool", /*default=*/"true",
           "Order the loops (i, k, j); false: keep (i, j, k), mark the flags only">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect"];
}

def ReassociateReductions : Pass<"ag-reassociate-reductions"> {
  let summary = "Let LLVM reorder float sums and products, so that they vectorize";
  let description = [{
    A float reduction is a chain of dependent additions (or multiplications) that LLVM
    may not reorder: it neither vectorizes nor overlaps latencies. TensorFlow and XLA do
    not reduce in order either. This pass marks the operation that combines each element
    into a float accumulator of a `linalg.reduce` or `linalg.generic` `reassoc`, and
    nothing else, so LLVM's loop vectorizer keeps vectors of partial results as wide as
    the target's registers, for any trip count (also one known only at run time), and
    adds their lanes at the end. The result depends on the target's vector width, not on
    the run. Maximum and minimum need no mark; integer reductions vectorize as they are.
    Before:
    ```mlir
    %r = linalg.reduce ins(%x : tensor<?xf32>) outs(%init : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) { %s = arith.addf %in, %acc : f32  linalg.yield %s : f32 }
    ```
    After:
    ```mlir
      (%in: f32, %acc: f32) { %s = arith.addf %in, %acc fastmath<reassoc> : f32 ... }
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def ApproximateTanh : Pass<"ag-approximate-tanh"> {
  let summary = "Rewrite float32 math.tanh as TensorFlow's rational function, which vectorizes";
  let description = [{
    A float32 `math.tanh` otherwise becomes a call of libm's `tanhf`, which keeps the loop
    around it scalar. TensorFlow's Eigen kernels evaluate tanh as a rational function of
    degree 13/6 (clamped to [-7.9, 7.9]; x itself where |x| < 0.0004); upstream's
    polynomial approximation of tanh is that function. This pass applies it to f32 tanhs
    only: the result is `arith` and `math.fma`, and a loop of them vectorizes. float64
    tanh keeps libm.
    Before:
    ```mlir
    %y = math.tanh %x : f32
    ```
    After (abridged):
    ```mlir
    %c = arith.maximumf %x, %lo ... %p = math.fma %x2, %alpha13, %alpha11 ...
    %y = arith.select %tiny, %x, %ratio : f32
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def ApproximateLog : Pass<"ag-approximate-log"> {
  let summary = "Rewrite float32 math.log as TensorFlow's polynomial, which vectorizes";
  let description = [{
    A float32 `math.log` otherwise becomes a call of libm's `logf`, which keeps the loop
    around it scalar and ignores the flushing of denormals the runtime sets around each
    call (TensorFlow's Eigen kernels see a denormal as 0: log gives -inf). Upstream's
    polynomial approximation of log is Cephes' (as Eigen's `plog_float`): the exponent
    split off with bit operations and a polynomial on the mantissa, within a unit or two in
    the last place; x < 0 and NaN give NaN, 0 gives -inf, +inf gives +inf. f64 keeps libm.
    ```mlir
    %y = math.log %x : f32
    // becomes (abridged)
    %e = arith.shrui %bits, %c23 ... %p = math.fma %m, %p7, %p6 ... %y = arith.select ...
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def ApproximateExp : Pass<"ag-approximate-exp"> {
  let summary = "Rewrite float32 math.exp as a polynomial that LLVM vectorizes";
  let description = [{
    A float32 `math.exp` otherwise becomes a call of libm's `expf`, which keeps the loop
    around it scalar. This pass applies upstream's polynomial approximation of exp
    (range reduction, a degree-7 polynomial, the exponent rebuilt with integer
    operations; infinities, NaN, overflow and underflow handled) to f32 exps only:
    the result is `arith` and `math.fma`, and a loop of them vectorizes. Its error is a
    few units in the last place, as is Eigen's, which TensorFlow uses; float64 exp and
    every other function keep libm.
    Before:
    ```mlir
    %y = math.exp %x : f32
    ```
    After (abridged):
    ```mlir
    %k = math.floor (%x * 1.44269502)   // x / ln 2
    %r = %x - %k * 0.693147182          // in [-ln2/2, ln2/2]
    %p = math.fma ... %r ...            // the polynomial
    %y = %p * 2^%k                      // exponent bits; 0, inf, NaN selected
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def FuseElementwise : Pass<"ag-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops, with a bound on the size of a fused body";
  let description = [{
    Upstream's elementwise fusion (a producer with one use fuses into its consumer), with
    one more condition: the fused body holds at most `max-body-ops` operations. Without
    it a chain of n elementwise ops costs n^2 / 2 op clones (8,000 statements: 53 s);
    with it, a chain becomes n / max-body-ops ops, each one pass over memory.
    Before (max-body-ops=4):
    ```mlir
    %1 = linalg.generic ... ins(%x) { addf }
    %2 = linalg.generic ... ins(%1) { addf }
    %3 = linalg.generic ... ins(%2) { addf }
    %4 = linalg.generic ... ins(%3) { addf }
    ```
    After:
    ```mlir
    %2 = linalg.generic ... ins(%x) { addf, addf }
    %4 = linalg.generic ... ins(%2) { addf, addf }
    ```
    A reduction whose payload stops reading its accumulator (a fused constant input:
    `false and acc` is `false`) keeps its init for the case of no iterations: it becomes
    its inits where a reduction loop is statically empty, else an `scf.if` on the trip
    count, upstream's fusion giving the iterating op `tensor.empty` outputs only there.
    With `recompute` (the GPU pipeline's), an elementwise producer of several uses
    whose payload is arithmetic and math a kernel computes fuses into each consumer:
    computed again there, never stored (a softmax's exponentials, in its sum and its
    division: two passes over memory fewer).
    A producer whose payload has an effect (a run-time check's call) stays after its
    fusion, for that effect, unless the fused op repeats it at every point in the same
    order (an elementwise consumer with no effect of its own reading the whole result
    through the identity): `tf.gather(t, ids) * 2.0` gathers and checks each index
    once, not twice (on the GPU, one kernel rather than two).
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "unsigned", /*default=*/"64",
           "The most operations a fused body may hold (its yield included)">,
    Option<"recompute", "recompute", "bool", /*default=*/"false",
           "Also fuse an elementwise producer of several uses into each consumer, "
           "computing it again there rather than storing it (for GPUs, where memory "
           "traffic costs more than arithmetic: a softmax's exponentials)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
                           "mlir::scf::SCFDialect", "mlir::tensor::TensorDialect"];
}

def ExactPowers : Pass<"ag-exact-powers"> {
  let summary = "math.powf with a constant exponent of 2, 1, 0 or -1 as x * x, x, 1 or 1 / x";
  let description = [{
    Each of those is one correctly rounded IEEE operation with powf's special values:
    on the CPU it vectorizes where libm's powf kept the loop scalar; in a GPU kernel it
    needs no libdevice (the loop was left on the host). Other exponents keep powf.
    Scalars only (it runs on linalg payloads, after fusion folds the exponent in).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def MathToIntrinsics : Pass<"ag-math-to-intrinsics"> {
  let summary = "Rewrite exactly rounded math ops (fma, sqrt, floor, ...) to LLVM intrinsics";
  let description = [{
    `convert-math-to-libm` turns math ops into C library calls (`floorf`, `fmaf`,
    `sqrtf`), and a call keeps its loop scalar. fma, sqrt, floor, ceil, trunc, roundeven,
    fabs and copysign have exactly one correct result in IEEE 754, so their LLVM
    intrinsics give the same bits, vectorize, and become single instructions. This pass
    rewrites them to the intrinsics, on floats and vectors of floats; math functions that
    libm approximates (exp, tanh, log, ...) are left to it.
    Before:
    ```mlir
    %y = math.floor %x : f32
    %z = math.fma %a, %b, %y : f32
    ```
    After:
    ```mlir
    %y = llvm.intr.floor(%x) : (f32) -> f32
    %z = llvm.intr.fma(%a, %b, %y) : (f32, f32, f32) -> f32
    ```
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def MatmulMicrokernel : Pass<"ag-matmul-microkernel"> {
  let summary = "Rewrite float32 matmuls as a register-blocked vector kernel";
  let description = [{
    A float32 `linalg.matmul` (static sizes at least `rows` x `cols`, or sizes known only
    at run time) becomes, on tensors: B's `cols`-wide panels packed, each a contiguous
    [K, cols] slice of a tensor<panels x K x cols> (a linalg.generic; placed before the
    thread chunks of `ag-tile-for-threads` around the matmul where B comes from outside
    them, so that the chunks share one copy); loops over the panels and over `rows`-high
    blocks of A; and a k loop that carries a `rows` x `cols` block of the result in vector
    registers (scf.for iter_args): per k, one row of the panel is read, each of the
    `rows` elements of A broadcast, and `rows` vector FMAs accumulate. The block is read
    from the matmul's init before the k loop and written back after it
    (vector.transfer_read/write on the tensor, in place after bufferization). With
    `narrow-cols` smaller than `cols`, the columns those blocks leave over at the right
    get blocks `narrow-cols` wide (one vector register) first, from panels of their own.
    The last columns, fewer than the narrowest block, go through the same kernel in one
    panel of that width padded with zeros (packed[0, k, c] = B[k, col0 + c] where that
    column exists, else 0), the result read and written there by masked
    vector.transfer_read/write (no in_bounds); the rows no block covers go through each
    panel one row at a time. With `pack-chunks`, B's packing, where it was moved before
    the matmul's thread chunks, is split into chunks of panels too (an `scf.forall`),
    so that the cores share it rather than one packing while the others wait. With
    `depth-unroll`, the k loop does that many steps an iteration (the ks left over one
    at a time after it). Every result element sums its products in order of k.
    Statically smaller or other matmuls are left unchanged for `ag-matmul-loop-order`.
    Before:
    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>)
                       outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
    ```
    After (abridged, rows = 4, cols = 16):
    ```mlir
    %packed = linalg.generic {indexing_maps = [(p, k, c) -> (k, p * 16 + c), (p, k, c) -> (p, k, c)]}
        ins(%b : tensor<32x64xf32>) outs(tensor.empty() : tensor<4x32x16xf32>)
    scf.for %p = 0 to 4 step 1 iter_args(%q0 = %init) {
      %j0 = %p * 16
      scf.for %i0 = 0 to 64 step 4 iter_args(%q = %q0) {
        %acc0 = vector.transfer_read %q[%i0, %j0] : tensor<64x64xf32>, vector<16xf32>
        ...
        scf.for %k = 0 to 32 step 1 iter_args(%r0 = %acc0, ...) {
          %row = vector.transfer_read %packed[%p, %k, 0] : tensor<4x32x16xf32>, vector<16xf32>
          %a0 = tensor.extract %a[%i0, %k] : tensor<64x32xf32>
          %s0 = vector.broadcast %a0 : f32 to vector<16xf32>
          %n0 = vector.fma %s0, %row, %r0 : vector<16xf32>
          ...
        }
        vector.transfer_write ... into %q[%i0, %j0] ...
    ```
  }];
  let options = [
    Option<"rows", "rows", "int64_t", /*default=*/"4", "Rows of the result block in registers">,
    Option<"cols", "cols", "int64_t", /*default=*/"16", "Columns of the result block (vector width)">,
    Option<"narrowCols", "narrow-cols", "int64_t", /*default=*/"0",
           "Columns of the blocks over what `cols`-wide blocks leave at the right (0: none)">,
    Option<"packChunks", "pack-chunks", "int64_t", /*default=*/"0",
           "Where B is packed before thread chunks, pack it in at most this many chunks "
           "of panels too, an scf.forall the cores share (0: in one piece)">,
    Option<"depthUnroll", "depth-unroll", "int64_t", /*default=*/"1",
           "Steps of k in one iteration of the kernel's k loop (the rest one at a time)">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect", "mlir::vector::VectorDialect"];
}

def TileForThreads : Pass<"ag-tile-for-threads"> {
  let summary = "Split large tensor work into a fixed number of chunks the cores share";
  let description = [{
    Each linalg op of at least `min-work` iteration points whose body is pure arithmetic
    becomes an `scf.forall` over `chunks` chunks of one loop, on tensors: its first
    parallel loop of more than one iteration (each chunk writes a slice of the result),
    or, when every loop reduces, its first reduction loop (each chunk a partial result
    from the combiner's neutral element, combined in order into the init afterwards).
    The chunks depend on the sizes only, never on the thread count, so a float sum is
    combined in the same order on every machine. Sizes known only at run time keep the
    op twice, chunked and whole, under an `scf.if` on the number of points. Nothing in a
    chunk calls the runtime, so no run-time error is raised on a worker thread.
    ```mlir
    %r = linalg.generic ... ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) ...
    // becomes
    %r = scf.if %big -> tensor<?xf32> {
      %t = scf.forall (%c) in (16) shared_outs(%o = %e) -> tensor<?xf32> { ... }
      scf.yield %t : tensor<?xf32>
    } else { ... the op as it was ... }
    ```
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "The fewest iteration points an op needs to be split">,
    Option<"chunks", "chunks", "int64_t", /*default=*/"16",
           "The number of chunks a split op computes">,
    Option<"matmulRows", "matmul-rows", "int64_t", /*default=*/"0",
           "A linalg.matmul's chunks: a whole number of this many rows each (the matmul "
           "kernel's row block), at most `chunks` of them (0: as every op)">
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::affine::AffineDialect",
                           "mlir::arith::ArithDialect", "mlir::tensor::TensorDialect",
                           "mlir::linalg::LinalgDialect"];
}

def ReuseInputBuffers : Pass<"ag-reuse-input-buffers"> {
  let summary = "Write an elementwise result over an input nothing else reads";
  let description = [{
    A `linalg.generic` with only parallel loops whose init is a `tensor.empty` takes as
    its init instead an input of the result's type, read at the same index and used by
    nothing else, and reads that input through its output argument: bufferization then
    writes the result over the input's buffer (a staged loop's carried tensor is updated
    in place), or copies first where that buffer is still needed or read-only. Every
    tensor argument of a function is marked `bufferization.writable = false`: the
    caller's tensors are never written.
    ```mlir
    %r = linalg.generic ins(%x, %a) outs(%e) ...   // %e = tensor.empty
    // becomes
    %r = linalg.generic ins(%a) outs(%x) ...
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect",
                           "mlir::bufferization::BufferizationDialect"];
}

def ParallelLoops : Pass<"ag-parallel-loops"> {
  let summary = "Bufferized chunk loops become scf.parallel when a worker may run them";
  let description = [{
    After bufferization, each `scf.forall` becomes an `scf.parallel` (which
    `convert-scf-to-openmp` runs on all cores) when its body holds no call and no heap
    allocation, the only ways generated code raises a run-time error (a longjmp to the
    caller, which must not happen on a worker thread); otherwise sequential `scf.for`
    loops over the same chunks. A buffer a chunk allocates for itself (the matmul
    kernel's panel), with sizes known before the loop and used only in place, becomes
    that chunk's slice of one buffer allocated before the loop.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::memref::MemRefDialect"];
}

def ExpandShapeMetadata : Pass<"ag-expand-shape-metadata"> {
  let summary = "memref.expand_shape of several dynamic sizes in one group as a reinterpret_cast";
  let description = [{
    MLIR 22's `expand-strided-metadata` crashes on a `memref.expand_shape` that expands
    one dimension into several of dynamic size (it derives a group's sizes from the
    source's size, which cannot give two unknowns). Bufferized reshapes and the fusion
    of reshapes with elementwise work make them. This pass, run just before it, rewrites
    each such `expand_shape` into the `memref.reinterpret_cast` that pass makes of the
    others: the source's base buffer and offset, the sizes of `output_shape`, and in each
    group the source dimension's stride times the sizes after it in the group.
    ```mlir
    %e = memref.expand_shape %m [[0, 1]] output_shape [%a, %b]
        : memref<?xi32> into memref<?x?xi32>
    // =>
    %base, %offset, %size, %stride = memref.extract_strided_metadata %m
    %e = memref.reinterpret_cast %base to offset: [0], sizes: [%a, %b], strides: [%b, 1]
    ```
  }];
  let dependentDialects = ["mlir::affine::AffineDialect", "mlir::memref::MemRefDialect"];
}

def ExpandBFloat16 : Pass<"ag-expand-bfloat16"> {
  let summary = "bfloat16 conversions as integer operations, for every CPU";
  let description = [{
    LLVM lowers a float32 to bfloat16 `fptrunc` to one instruction where the CPU has
    AVX512-BF16, and elsewhere (x86-64-v3, agc's default) to a call of `__truncsfbf2`,
    which Debian 12's libgcc does not have: the object could not be linked, and
    `agc run` could not find it. This pass rewrites `arith.truncf` to bfloat16 (rounded
    to nearest even, a NaN kept a NaN, as Eigen's bfloat16 rounds) and `arith.extf` from
    it as bit operations on the integers, with upstream's ExpandBFloat16 patterns, so
    that the code is the same on every CPU.
    ```mlir
    %b = arith.truncf %x : f32 to bf16
    // =>
    %i = arith.bitcast %x : f32 to i32
    ... the rounding bias added, NaN selected to 0x7fc0, shifted right 16 ...
    %b = arith.bitcast %h : i16 to bf16
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def ThreadCount : Pass<"ag-thread-count", "mlir::ModuleOp"> {
  let summary = "Every omp.parallel as wide as the runtime chooses when it starts";
  let description = [{
    Gives each `omp.parallel` without a thread count `num_threads(agrt_num_threads())`:
    what `agc_set_num_threads` or `AGC_NUM_THREADS` asked for, or 0 for libomp's default
    (OMP_NUM_THREADS, or one thread per core).
  }];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::omp::OpenMPDialect"];
}

def PruneDead : Pass<"ag-prune-dead"> {
  let summary = "Erase what TensorFlow prunes, with the checks that guard it; then pin the checks left";
  let description = [{
    tf.function runs only the ops that its results and its stateful ops need: an op whose
    result nothing uses never runs, and never raises its error. agc's run-time checks
    (`ag.assert` with `guards`) follow that rule here, while the IR is as MLIRGen made it
    and no fold has yet cut a use (a `tensor.extract` of a splat constant folds to the
    splat, whatever the index it was given):

    1. a liveness analysis finds what the function's results and the ops with effects
       need, through `ag.while_loop` position by position: a loop variable that feeds
       nothing but itself is dead, as TensorFlow's optimizer removes it (a loop that holds
       effects is kept whole, as TensorFlow keeps a stateful While op); an `ag.cond`, like
       any other op, runs whole or not at all (TensorFlow keeps an If op with all its
       inputs, or prunes it);
    2. what is dead is erased (an ag.assert that guards values has no effect of its own),
       and the dead positions leave their loops;
    3. the checks left are pinned: each becomes an `ag.assert` that guards nothing, and
       its users take the values it guarded. From here on no pass can drop one.

    Before:
    ```mlir
    %g = ag.assert %ok, "m.py:3:9: index {0} is out of bounds"(%i) : i64 guards %j : index
    %unused = tensor.extract %t[%g] : tensor<?xf32>
    ```
    After: nothing.
  }];
}

def VersionBroadcasts : Pass<"ag-version-broadcasts"> {
  let summary = "Test a block's run-time broadcasts once; a version of the code where none happens";
  let description = [{
    Where sizes are known only at run time, an operand that turns out to be 1 where the
    result is not is copied first, in an `scf.if` taken only then (MLIRGen's broadcasts,
    as TensorFlow broadcasts), and the elementwise op reads that `scf.if`'s result: no
    two ops of a chain over such operands fuse. For each block (innermost first), the
    `scf.if`s of that form (no effects; an else branch that yields values from outside
    it) whose conditions pure scalar ops compute from sizes (`tensor.dim`, not a
    tensor's elements: a staged if's predicate is data), from what the first of them
    can see, are tested once: their conditions' ops move up before the first (to the
    block's start where they compute them from values from outside the block: the
    arguments' sizes), and the ops from there to the block's terminator become the two
    branches of `scf.if %any`:
    the ops as they were, and a copy in which every such condition is `false`
    (canonicalization folds its branches away, fusion makes the chain one loop). Both
    versions run the same checks and effects in the same order; the second only where
    it computes what the first would.
    Before:
    ```mlir
    %a = scf.if %x_differs -> (tensor<?xf32>) { ...copy of %x... } else { scf.yield %x }
    %b = scf.if %y_differs -> (tensor<?xf32>) { ...copy of %y... } else { scf.yield %y }
    %p = linalg.generic ... ins(%a, %b) { mulf }
    func.return %p
    ```
    After:
    ```mlir
    %any = arith.ori %x_differs, %y_differs : i1
    %r = scf.if %any -> (tensor<?xf32>) {
      ...the ops above, as they were...
    } else {
      %a = scf.if %false ... ; %b = scf.if %false ... ; %p = linalg.generic ins(%a, %b)
      scf.yield %p
    }
    func.return %r
    ```
  }];
  let options = [
    Option<"maxSpanOps", "max-span-ops", "unsigned", /*default=*/"4096",
           "The most ops (those in their regions too) a block's versioned part may hold: "
           "beyond, the block is left as it is (its code would be twice as long)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def LowerAgEffects : Pass<"ag-lower-effects", "mlir::ModuleOp"> {
  let summary = "Lower tf.print and tf.Variable access to runtime calls and memref.globals";
  let description = [{
    Runs before bufferization, so that what it builds bufferizes with the rest:

    - `ag.variable_read @v` becomes a copy of `memref.get_global @v` into a new buffer,
      seen as a tensor (`bufferization.to_tensor restrict writable`): later writes do
      not change a value already read.
    - `ag.variable_write @v, %x` becomes `bufferization.materialize_in_destination %x
      in restrict writable (memref.get_global @v)`.
    - `ag.print` becomes calls to agc's runtime, in order: `agrt_print_begin(stream,
      summarize)`, then per item `agrt_print_text(ptr)` (a NUL-terminated
      `llvm.mlir.global` constant) or `agrt_print_<dtype>(memref<*xT>)` (the tensor read
      through `bufferization.to_buffer read_only`), the separators between items and
      `end` as text, and `agrt_print_end()`, which writes the line at once.
    - `ag.format` writes its items the same way between `agrt_format_begin(summarize)`
      and `agrt_format_end()`, whose string handle becomes the result.
    - `ag.assert %ok, "message"` becomes `scf.if` on `not %ok` around a call of
      `agrt_fail(message)`, which ends the running call with a run-time error.

    Before:
    ```mlir
    ag.print %x : tensor<i32> {items = ["x:", 0 : i64], sep = " ", end = "\n",
                               stream = "stderr", summarize = 3 : i64}
    ```
    After (abridged):
    ```mlir
    func.call @agrt_print_begin(%c2, %c3) : (i32, i64) -> ()
    func.call @agrt_print_text(%s0) : (!llvm.ptr) -> ()
    func.call @agrt_print_text(%sep) : (!llvm.ptr) -> ()
    %b = bufferization.to_buffer %x read_only : tensor<i32> to memref<i32>
    %u = memref.cast %b : memref<i32> to memref<*xi32>
    func.call @agrt_print_i32(%u) : (memref<*xi32>) -> ()
    func.call @agrt_print_text(%end) : (!llvm.ptr) -> ()
    func.call @agrt_print_end() : () -> ()
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect",
                           "mlir::func::FuncDialect", "mlir::LLVM::LLVMDialect",
                           "mlir::memref::MemRefDialect", "mlir::arith::ArithDialect",
                           "mlir::scf::SCFDialect"];
}

def OrderConstantGlobals : Pass<"ag-order-constant-globals", "mlir::ModuleOp"> {
  let summary = "Name and place bufferization's constant globals in program order";
  let description = [{
    One-shot bufferization turns each dense constant into a `memref.global` named
    `__constant_<shape>` (with `_0`, `_1`, ... for others of the same shape), shared by
    every function that uses the same value. It visits functions in an order that
    depends on heap addresses, so the names, the order of the globals and the location
    each takes changed from one run to the next, and so did the object file. This pass
    makes them a function of the program alone: the globals are numbered in the order
    of their first use (a walk of the module), moved before the functions in that order,
    and located at that first use.

    Before (either, run to run):
    ```mlir
    memref.global "private" constant @__constant_2xf32_0 : memref<2xf32> = dense<[3.0, 4.0]>
    memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.0, 2.0]>
    func.func @f() { %0 = memref.get_global @__constant_2xf32 ... }
    func.func @g() { %0 = memref.get_global @__constant_2xf32_0 ... }
    ```
    After:
    ```mlir
    memref.global "private" constant @__constant_0 : memref<2xf32> = dense<[1.0, 2.0]>
    memref.global "private" constant @__constant_1 : memref<2xf32> = dense<[3.0, 4.0]>
    ```
  }];
}

def StackScopes : Pass<"ag-stack-scopes", "mlir::ModuleOp"> {
  let summary = "Stack that a call or a launch takes outside the entry block, given back after it";
  let description = [{
    In the LLVM dialect, last in the host code's lowering: an llvm.alloca outside a
    function's entry block (a memref descriptor written on the stack for a runtime call
    such as tf.print's) and each gpu.launch_func (whose translation allocates the
    kernel's argument arrays on the stack where it is) between `llvm.intr.stacksave`
    and `llvm.intr.stackrestore`, the scope ending after the last use of the memory in
    the block. An alloca outside the entry block takes more stack each time it runs: a
    staged loop of 1,000,000 tf.print calls, or of 100,000 launches, overflowed the
    stack of the caller's thread. Only where every use of the memory is in its block
    (loads, stores into it, address arithmetic, calls); overlapping scopes merge.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def CheckLLVMLowered : Pass<"ag-check-llvm-lowered", "mlir::ModuleOp"> {
  let summary = "Report every operation that is not in the LLVM dialect, at its location";
  let description = [{
    The last pass of the CPU pipeline. `mlir-opt` succeeds even when a conversion left
    operations behind; this pass fails instead, with an error at each such operation's
    location, which MLIRGen made the Python `file:line:col` it came from.
  }];
}

def GPUSplitReductions : Pass<"ag-gpu-split-reductions", "mlir::func::FuncOp"> {
  let summary = "Reductions to one value or along any axes, as a kernel of partial results and their combine";
  let description = [{
    For --target=nvptx, on tensors. A `linalg.reduce` or `linalg.generic` whose payload's
    last op combines the accumulator (addf, mulf, maximumf, minimumf, addi, muli,
    max/min, andi, ori, xori), whose init is filled with that combiner's identity and
    whose inputs are read by projected permutations is split in two:

    - to one value (every loop reduced): a parallel `linalg.generic` over blocks of
      256 partials, a block for each 4096 elements up to 1024 (thread t combines
      elements t, t + T, ... in order: an `scf.for` over `tensor.extract`s of the
      flattened inputs, from the identity, each round reading consecutive elements;
      the block's lanes combined in an `scf.for` marked `ag.block_lanes`, which
      -ag-gpu-block-reductions makes a block of threads and a `gpu.all_reduce`), and a
      `linalg.reduce` of the blocks' results into the original init, on the host.
      Inputs of static size below 32768 are left to the host.
    - along the last axes (one or two leading parallel loops, the init indexed by them,
      the last loop each input's contiguous dimension): a block of T lanes for each row,
      T a multiple of 32 from 32 to 1024 (about 16384 threads in all), so that 32
      consecutive threads read 32 consecutive elements of a row rather than one thread
      a whole row, the block's result the row's (the init, the identity, is not read).
      Rows of static size below 64 are left as they are.
    - along leading axes (the last loop parallel): [T, outputs] partials,
      T = ceil(16384 / outputs), 32 consecutive threads on 32 consecutive outputs,
      then one thread per output combining its T partials (a float sum's with Kahan's
      compensation, not reassociated). Static output counts of
      16384 and more (enough threads already) and reduced extents below 64 are left.

    Where a block's loop stays on the host (its body is not kernel work), it combines
    the lanes in order.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect", "mlir::arith::ArithDialect"];
}

def GPUParallelLoopsFirst : Pass<"ag-gpu-parallel-loops-first", "mlir::func::FuncOp"> {
  let summary = "Linalg ops whose reduction loops come before parallel ones, reordered parallel-first";
  let description = [{
    For --target=nvptx, on tensors. A `linalg.reduce` or `linalg.generic` with a
    reduction loop before a parallel one (a reduction along a leading axis:
    `tf.reduce_sum(m, axis=0)`) is generalized and interchanged so that its parallel
    loops come first, in their order, then its reduction loops, in theirs. Lowered to
    loops, the parallel ones are then the outermost `scf.parallel`, which
    -ag-gpu-map-loops makes one kernel of one thread per output element, each thread's
    loop over the reduced axes inside it; in the original order, the reduction was a
    sequential loop on the host around a kernel launched in every iteration.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def GPUExpandMath : Pass<"ag-gpu-expand-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "Kernel math without an instruction (rsqrt, float32 erf, expm1, log1p, bounded sin and cos) as arithmetic";
  let description = [{
    For --target=nvptx, on the outlined kernels (before emulation or NVVM): `math.rsqrt`
    becomes 1 / sqrt(x) (upstream's expansion, as on the CPU: the same bits); float32
    `math.erf` upstream's polynomial approximation (within 3.7 units in the last
    place); float32 `math.expm1` and `math.log1p` upstream's approximations by
    `math.exp` and `math.log` with Kahan's corrections (those then
    -ag-approximate-exp's and -ag-approximate-log's; within 3.9 and 2.3 units); float32
    `math.sin` and `math.cos` marked `ag.kernel_trig` by -ag-gpu-kernel-checks
    (arguments of magnitude up to 105615) as a range reduction by three parts of pi / 2
    with fused multiply-adds and Cephes' polynomials (within 1.7 units).
    -ag-gpu-map-loops admits these ops in kernels.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def GPUKernelChecks : Pass<"ag-gpu-kernel-checks", "mlir::func::FuncOp"> {
  let summary = "Run-time checks (and float32 sin and cos) of a parallel loop bounded by a flag the host reads, so that the loop can be a kernel";
  let description = [{
    For --target=nvptx, after bufferization, before -ag-gpu-map-loops. An outermost
    `scf.parallel` whose body is kernel code but for run-time checks (an `scf.if`
    calling `agrt_fail` or `agrt_fail_values`, directly in the body: a `tf.gather`'s
    index check) gets a flag, a `memref<i32>` set to 0 before it; each check stores 1
    into the flag where it fails and the rest of the body runs in its else branch (no
    thread reads out of bounds). After the loop the host reads the flag and, where it
    is set, runs a copy of the original loop, which fails at the first failing point
    in order with the CPU target's message. Only where every buffer the loop writes is
    one the function allocates and the loop does not read (the copy sees what the
    kernel saw). A check nested deeper, or any other op a kernel cannot run, leaves the
    loop as it is. The flag also bounds float32 `math.sin` and `math.cos` anywhere in
    such a body (whose results flow into no index): each stores 1 where its argument's
    magnitude exceeds 105615 or is NaN and is marked `ag.kernel_trig`, which
    -ag-gpu-expand-math computes for arguments within that bound; beyond, the rerun
    computes the loop with libm.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect", "mlir::math::MathDialect"];
}

def GPUFuseBlocks : Pass<"ag-gpu-fuse-blocks", "mlir::func::FuncOp"> {
  let summary = "The loops of a row's work after a block's loop, fused into it (a row softmax: one block loop)";
  let description = [{
    Before -ag-gpu-block-reductions. A block's loop (an outermost `scf.parallel` from 0 by
    1 with an `ag.block_lanes` loop at its top level, -ag-gpu-split-reductions) takes in
    the parallel loops that follow it in its block, with only arithmetic and
    allocations between (moved before it), where each has the same row bounds (the same
    values), is either a block's loop of the same lanes or a loop over [rows, columns]
    (which becomes a lanes' loop of no result, lane l taking columns l, l + L, ...),
    runs in a kernel, and touches no buffer the other writes, but for reading at the
    row what the block's loop stored there at its top level: such a load becomes the
    stored value. Every buffer either writes must be a fresh allocation no view
    aliases. A row softmax's max, sum and division become one loop, which
    -ag-gpu-block-reductions makes one kernel.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def RegisterAccumulators : Pass<"ag-register-accumulators", "mlir::func::FuncOp"> {
  let summary = "Inner loops of a parallel loop that add into one element of a buffer each step: the element in a register, loaded before the loop and stored after";
  let description = [{
    After bufferization: for --target=nvptx before -ag-gpu-map-loops, for the CPU
    after linalg's loops and before their OpenMP regions. An `scf.for` inside an
    `scf.parallel` whose body, at its top level, loads an element of a fresh
    allocation or of a subview of one (indices defined outside the loop) and then
    stores into the same element, with no other access to that memory in the body
    under any of its names and every op of known memory effects, carries the element
    as an iteration argument: loaded once before the loop, stored once after (both
    under an `scf.if` that the loop runs an iteration, unless its bounds are
    constants). A matmul's kernel then stores each result once rather than after every
    multiply-add, and a CPU thread's chunk of a sum keeps its partial sum in a register
    (the code generator cannot do either itself: the buffers may alias, to it). The
    same arithmetic in the same order. Inner loops first. Where the parallel loop just
    before (nothing between touching the buffer) fills the buffer, a fresh allocation
    no view names, with one value over the same bounds, and the carried element is read
    at the kernel loop's induction variables, its first value is the fill's value,
    stored where the inner loop runs no iteration, and the fill loop is erased: a
    matmul and its zeros, one kernel.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def GPURegisterTiles : Pass<"ag-gpu-register-tiles", "mlir::func::FuncOp"> {
  let summary = "A kernel thread's tile of 4 x 4 outputs of a matmul: its sixteen sums carried through one loop over k";
  let description = [{
    For --target=nvptx, after -ag-register-accumulators, before -ag-gpu-map-loops.
    An outermost `scf.parallel` of two or three dimensions from 0 by 1, not yet mapped,
    whose body a kernel can compute (at most 64 ops; loops and conditionals only, each
    with bounds and condition that do not depend on the two innermost dimensions), and
    whose body's loops load one value that does not depend on the innermost dimension
    and one that does not depend on the one before it (a matmul's A[i, k] and B[k, j]),
    and no store (the sums carried in registers by -ag-register-accumulators),
    becomes a loop of a thread per tile of 4 rows x 4 columns, the columns 32 apart (a
    warp's 32 threads take 128 neighbouring columns, each load of B by a warp reading
    32 neighbouring elements): the tile's sixteen copies of the body jammed into one loop
    nest (one loop over k carrying sixteen sums, whose loads CSE merges: four of A and
    four of B for sixteen multiply-adds, not two for one). A tile at the edge computes
    its elements inside the bounds one after another. Only where the loop has at least
    `min-outputs` iterations, 4 rows and 128 columns (fewer, and the tiles would leave the
    GPU's threads idle): decided while compiling where the sizes are constants, else both
    loops, chosen when the function runs. Each element is computed by the same
    operations in the same order as before: the same results.

    Where the body's one loop is a matmul's loop over k (its loads of A[i, k] and
    B[k, j] at indices pure ops compute) and the rows are a multiple of 32 and the
    columns of 128 (with `shared-memory`, the default): a `gpu.launch` of blocks of
    32 x 8 threads instead, each thread the same tile of 4 x 4, each block 32 rows x
    128 columns, whose loop over k goes by slices of 16: the block's threads load the
    slice's 32 x 16 elements of A and 16 x 128 of B into workgroup memory together
    (between two `gpu.barrier`s), then each thread's sixteen sums take their 16 steps
    from it; the k's after the last whole slice from global memory. Sizes known only
    at run time: this kernel where they hold, the register tiles (or the original)
    otherwise. The same values in the same order for each sum: the same results.
  }];
  let options = [
    Option<"minOutputs", "min-outputs", "int64_t", /*default=*/"524288",
           "Tile only a loop of at least this many iterations (outputs)">,
    Option<"sharedMemory", "shared-memory", "bool", /*default=*/"true",
           "Stage A and B in shared memory, where the blocks' tiles fill">,
  ];
  let dependentDialects = ["mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
                           "mlir::gpu::GPUDialect", "mlir::scf::SCFDialect"];
}

def GPUVectorAccess : Pass<"ag-gpu-vector-access", "mlir::func::FuncOp"> {
  let summary = "An elementwise kernel's thread computes four neighbouring elements, read and written by one vector access each";
  let description = [{
    For --target=nvptx, after -ag-gpu-register-tiles, before -ag-gpu-map-loops. An
    outermost `scf.parallel` from 0 by 1, not yet mapped, whose body a kernel can compute
    with no loop or conditional, and whose loads and stores that depend on the innermost
    index have it as their last index, alone, on a buffer whose last dimension is
    contiguous, becomes a loop of a thread per four neighbouring elements: each such
    access of elements of 1, 2, 4 or 8 bytes one `vector.load` / `vector.store` of four
    elements aligned to their size (PTX's ld.global.v4; a bool's one access each), the
    body's other ops once for each element (once for the four where they do not depend
    on the index). The
    host tests that every such buffer starts at a multiple of the vector's bytes and its
    rows at multiples of 4 elements; where one does not, and for the last elements, the
    thread computes its elements one after another. Each element is computed by the same
    operations as before: the same results. Left alone: fewer than 4 elements along the
    innermost dimension, or a stride or offset known while compiling that is not a
    multiple of 4.
  }];
  let dependentDialects = ["mlir::affine::AffineDialect", "mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect", "mlir::scf::SCFDialect",
                           "mlir::vector::VectorDialect"];
}

def GPUBlockReductions : Pass<"ag-gpu-block-reductions", "mlir::func::FuncOp"> {
  let summary = "A reduction's blocks of partials as kernels of a block of threads each, combined by gpu.all_reduce";
  let description = [{
    Before -ag-gpu-map-loops. An outermost `scf.parallel` from 0 by 1 whose body a GPU
    can compute and holds, at its top level, `scf.for` loops marked `ag.block_lanes`
    (written by -ag-gpu-split-reductions, fused by -ag-gpu-fuse-blocks), all of the
    same count defined before the parallel loop, becomes a `gpu.launch` of one block
    per iteration (numbered row-major on x) and one thread per lane. A lanes' loop with
    one result (a block's lanes' partials combined in order) becomes each thread's
    partial and their `gpu.all_reduce` (uniform; a tree of warp shuffles and shared
    memory once lowered, in the order -ag-gpu-emulate-launches reproduces), combined
    with the loop's initial value; its body must end with the combine of its
    accumulator (addf, mulf, maximumf, minimumf, addi, muli, max/min, andi, ori, xori).
    A lanes' loop of no result becomes the thread's lane's share. Other top-level ops
    are arithmetic and loads, run by every thread, and stores, run by thread 0, of
    buffers nothing in the body reads. Values narrower than 32 bits are combined as
    32-bit ones and narrowed after.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::arith::ArithDialect"];
}

def GPUMapLoops : Pass<"ag-gpu-map-loops", "mlir::func::FuncOp"> {
  let summary = "Parallel loops a GPU can run, tiled into blocks of threads and mapped to them";
  let description = [{
    Each outermost `scf.parallel` of at most three dimensions whose body is arithmetic,
    index computation, buffer loads and stores, sequential loops and conditionals (no
    call, allocation, reduction, or math that needs libdevice) is tiled into blocks of
    256 threads (32 x 8 for two dimensions, no wider than a dimension of fewer
    iterations known while compiling), the innermost dimension on x, and given the gpu
    dialect's mapping attribute, which `convert-parallel-loops-to-gpu` turns into a
    `gpu.launch`; the threads' bounds are folded for it here (a canonicalize between
    would merge the thread loop of a static size that is a multiple of the block's
    into its block loop, unmapped). The blocks go on the grid's x, y and z; where y or z
    might be asked for more than the 65,535 blocks it takes (a count not bounded while
    compiling, by constants or by the integer ranges of the bounds, or past it), the
    launch is in an `scf.for` on the host, marked `ag.grid_launches = "y"` (or "z"),
    each launch at most 65,535 blocks along it. Other loops stay on the host.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::affine::AffineDialect",
                           "mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def GPUDefineMath : Pass<"ag-gpu-define-math", "mlir::gpu::GPUModuleOp"> {
  let summary = "libdevice's functions that are one instruction, defined in each kernel module";
  let description = [{
    After `convert-gpu-to-nvvm`, each declared `__nv_fabsf`, `__nv_fmaf`, `__nv_floorf`,
    `__nv_ceilf`, `__nv_truncf`, `__nv_sqrtf`, `__nv_rintf`, `__nv_copysignf`,
    `__nv_fminf`, `__nv_fmaxf` (and their float64 forms) gets an internal body: LLVM's
    intrinsic, which the NVPTX back end lowers to one instruction. The PTX then never
    needs CUDA's libdevice, and does not depend on whether a toolkit is installed.
    Another libdevice function is an error.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def GPUFlushDenormals : Pass<"ag-gpu-flush-denormals", "mlir::gpu::GPUModuleOp"> {
  let summary = "Every kernel function flushes float32 denormals to zero, as the host's code does";
  let description = [{
    After `convert-gpu-to-nvvm`, each `llvm.func` defined in a kernel module gets
    `denormal_fp_math_f32 = "preserve-sign,preserve-sign"`, so that the NVPTX back end
    writes PTX's `.ftz` forms of float32 arithmetic, comparisons and sqrt: a denormal
    input reads as a zero of its sign and a denormal result is one, as on the host,
    whose calls run with x86-64's flush-to-zero and denormals-are-zero modes (as
    TensorFlow's CPU kernels do; its CUDA kernels are built to flush too). float64 has
    no such form on a GPU: its denormals stay. A comparison of bfloat16 values becomes
    one of their (exact) float32 extensions: the back end would write it as
    `setp.ftz.bf16`, which ptxas refuses.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def GPUStageBuffers : Pass<"ag-gpu-stage-buffers", "mlir::func::FuncOp"> {
  let summary = "The caller's tensors and the constants of a function with kernels, copied to buffers a GPU can read";
  let description = [{
    In a function that launches a kernel (gpu.launch_func), each memref argument and
    each constant global it reads is copied, once, at the function's entry, into a
    buffer of its own (memref.alloc, which an nvptx object allocates as CUDA managed
    memory), and every use reads the copy. Runs before buffer deallocation.

    With `driver-copies` (the nvptx pipeline's choice, unless its launches are
    emulated), the copies of the caller's tensors are marked `ag.through_driver`, for
    -ag-gpu-driver-copies to make them copies by the CUDA driver after buffer
    deallocation: a caller may pass tensors in GPU memory (AGC_CUDA). The constants are
    host memory, copied by the host.
  }];
  let options = [
    Option<"driverCopies", "driver-copies", "bool", /*default=*/"false",
           "Mark the copies of the caller's tensors for the CUDA driver (ag.through_driver)">,
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def GPUDriverCopies : Pass<"ag-gpu-driver-copies", "mlir::func::FuncOp"> {
  let summary = "memref.copy marked ag.through_driver, as a copy by the CUDA driver";
  let description = [{
    Each `memref.copy` marked `ag.through_driver` (-ag-gpu-stage-buffers' copies of the
    caller's tensors) becomes a `gpu.memcpy` on a stream of its own, waited for. The
    driver's copy reads host and device memory alike (unified addressing), so the caller
    may pass tensors in GPU memory (AGC_CUDA); the runtime runs it on the caller's
    stream where one was given (agc_set_stream). After buffer deallocation, which cannot
    see through `gpu.wait`.
    ```mlir
    memref.copy %x, %x1 {ag.through_driver} : memref<?xf32> to memref<?xf32>
    ```
    becomes
    ```mlir
    %s = gpu.wait async
    %t = gpu.memcpy async [%s] %x1, %x : memref<?xf32>, memref<?xf32>
    gpu.wait [%t]
    ```
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GPUManagedBuffers : Pass<"ag-gpu-managed-buffers", "mlir::ModuleOp"> {
  let summary = "Host buffers from the runtime's GPU allocator (CUDA managed memory)";
  let description = [{
    After finalize-memref-to-llvm: calls of MLIR's generic allocation function
    `_mlir_memref_to_llvm_aligned_alloc` call `agrt_gpu_aligned_alloc` instead, which
    gives memory that host and device both address (host memory where no GPU is).
  }];
}

def GPUEmulateLaunches : Pass<"ag-gpu-emulate-launches", "mlir::ModuleOp"> {
  let summary = "Kernel launches as sequential loops on the CPU (testing without a GPU)";
  let description = [{
    For agc --gpu-emulate: each gpu.launch_func becomes a nest of scf.for loops over
    its blocks and threads (z, y, x) running the kernel's body, with the block and
    thread ids the loops' indices; the gpu.module ops are erased. Exact for agc's
    kernels, whose threads talk only through barriers: a `gpu.barrier` or a uniform
    `gpu.all_reduce` (-ag-gpu-block-reductions) splits the body in phases, each run for
    all of a block's threads before the next, the all_reduce's operands combined
    between them in its lowering's order (a pairwise tree); an `scf.for` or `scf.if`
    with a barrier in it runs once for the block (its bounds or condition must not
    depend on the thread), its body's phases for all the threads in turn; values a
    thread carries from one phase to another, and such a loop's iteration arguments
    and results, are kept in a buffer of one element per thread; workgroup
    attributions are buffers of the launch (the blocks run one after another).
    Refused: a barrier in any other region, private attributions.
  }];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::arith::ArithDialect"];
}

def GPUFatBinary : Pass<"ag-gpu-fat-binary", "mlir::ModuleOp"> {
  let summary = "Each kernel module's PTX for every chip, and its cubin, in one CUDA fat binary";
  let description = [{
    After gpu-module-to-binary (PTX, one object per chip): with the CUDA toolkit at
    `toolkit`, each chip's PTX is assembled by its ptxas and every cubin and PTX packed
    by its fatbinary into one object (format fatbin) that replaces them, which the
    translation embeds whole. With an empty `toolkit`, nothing changes (the first chip's
    PTX is embedded).
  }];
  let options = [
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "The CUDA toolkit's directory (bin/ptxas, bin/fatbinary); empty: PTX only">,
  ];
}

#endif // AG_PASSES_PASSES_TD
