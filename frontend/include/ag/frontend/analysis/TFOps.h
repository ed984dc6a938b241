//===- TFOps.h - The TensorFlow ops agc knows (TFOps.def) ------------------===//
//
// TFOp names one op of TFOps.def; the Tracer types calls by it and the Emitter (MLIRGen)
// lowers them by it, so no op travels between them as a string.
//
//===----------------------------------------------------------------------------------===//
#ifndef AG_FRONTEND_ANALYSIS_TFOPS_H
#define AG_FRONTEND_ANALYSIS_TFOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ag::analysis {

enum class TFOp : uint8_t {
#define TF_OP(ID, NAME, TYPING, LOWERING) ID,
#include "ag/frontend/analysis/TFOps.def"
};

/// How many ops TFOps.def declares.
inline constexpr unsigned kNumTFOps = 0
#define TF_OP(ID, NAME, TYPING, LOWERING) +1
#include "ag/frontend/analysis/TFOps.def"
    ;

/// The op's name: tf.NAME ("reduce_sum", "random.uniform").
llvm::StringRef tfOpName(TFOp op);

/// The op a tf path names, aliases resolved ("tf.math.reduce_sum", "tf.nn.relu"), or
/// none. Ops reached only through Python operators have no path.
std::optional<TFOp> lookupTFOp(llvm::StringRef path);

/// The tf functions agc traces as compositions of its ops (TracerComposite.cpp): each
/// path with the dtypes it takes, in words (for the README's table of ops).
void listCompositeOps(std::vector<std::pair<std::string, std::string>> &out);

/// tf.cond, tf.while_loop, ...: what TracerExplicit.cpp traces.
llvm::ArrayRef<const char *> explicitControlFlowPaths();
/// tf.map_fn, tf.scan, ...: what TracerFunctional.cpp traces.
llvm::ArrayRef<const char *> functionalOpPaths();

/// Every TensorFlow function agc supports, as a Markdown table (function, dtypes, how it
/// is compiled), sorted by name: what `agc --list-ops` prints and the README holds.
void printSupportedFunctions(llvm::raw_ostream &os);

} // namespace ag::analysis

#endif // AG_FRONTEND_ANALYSIS_TFOPS_H
