//===- RecordLocations.cpp - Tell the runtime where each GPU op comes from ===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// The runtime names the failed op's source location in its error text; it
// learns it from a call before each host GPU op. Upstream's lowering has no
// such notion, so this is ours; it runs before the host lowering (the calls
// are LLVM dialect ops already, which every lowering keeps).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Conversion/Passes.h"
#include "SDFGStream/Conversion/RuntimeEntries.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace sdfg {
#define GEN_PASS_DEF_RECORDLOCATIONS
#include "SDFGStream/Conversion/Passes.h.inc"
} // namespace sdfg
} // namespace mlir

using namespace mlir;
using namespace mlir::sdfg;

namespace {
struct RecordLocations
    : public sdfg::impl::RecordLocationsBase<RecordLocations> {
  using RecordLocationsBase::RecordLocationsBase;
  void runOnOperation() override;
};
} // namespace

/// Text of a GPU op's location as the runtime prints it: `file:line:col`
/// where there is one, the printed location otherwise.
static std::string locationText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    os << fileLoc.getFilename().getValue() << ':' << fileLoc.getLine() << ':'
       << fileLoc.getColumn();
  else
    loc.print(os);
  return text;
}

/// Before each host GPU op, tell the runtime where it comes from, so that an
/// error names the op's source location. All texts live in one
/// deduplicated, NUL-separated byte array; each call passes a pointer into
/// it. One global and one declaration keep this linear in the module size.
/// Ops in a nested module are left to that module's own call: a symbol is
/// looked up in the nearest symbol table, so each module holds its own table.
static LogicalResult recordLocations(ModuleOp module) {
  SmallVector<std::pair<Operation *, uint64_t>> sites;
  llvm::StringMap<uint64_t> offsets;
  std::string table;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp>(op) || (isa<ModuleOp>(op) && op != module))
      return WalkResult::skip();
    if (!isa<gpu::AsyncOpInterface, gpu::HostRegisterOp,
             gpu::HostUnregisterOp, gpu::SetDefaultDeviceOp, SyncOp,
             StreamWaitOp, TimerBeginOp, TimerEndOp, CheckDeviceOp>(op))
      return WalkResult::advance();
    std::string text = locationText(op->getLoc());
    auto [it, inserted] = offsets.try_emplace(text, table.size());
    if (inserted) {
      table += text;
      table.push_back('\0');
    }
    sites.emplace_back(op, it->second);
    return WalkResult::advance();
  });
  if (sites.empty())
    return success();

  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  auto i8Type = IntegerType::get(context, 8);
  auto tableType = LLVM::LLVMArrayType::get(i8Type, table.size());
  OpBuilder builder(context);
  auto global = LLVM::GlobalOp::create(
      builder, loc, tableType, /*isConstant=*/true, LLVM::Linkage::Private,
      "__sdfgrt_locations", builder.getStringAttr(table));
  // Renamed if the module already has a symbol of that name.
  SymbolTable(module).insert(global, module.getBody()->begin());
  FailureOr<LLVM::LLVMFuncOp> callee =
      lookupOrDeclareRuntimeEntry(module, loc, RuntimeEntry::sdfgrtSetLocation);
  if (failed(callee))
    return failure();

  for (auto [op, offset] : sites) {
    builder.setInsertionPoint(op);
    Value base = LLVM::AddressOfOp::create(builder, op->getLoc(), global);
    Value text = LLVM::GEPOp::create(
        builder, op->getLoc(), ptrType, tableType, base,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(offset)});
    LLVM::CallOp::create(builder, op->getLoc(), *callee, text);
  }
  return success();
}

void RecordLocations::runOnOperation() {
  WalkResult result = getOperation()->walk([](ModuleOp module) {
    return failed(recordLocations(module)) ? WalkResult::interrupt()
                                           : WalkResult::advance();
  });
  if (result.wasInterrupted())
    signalPassFailure();
}
