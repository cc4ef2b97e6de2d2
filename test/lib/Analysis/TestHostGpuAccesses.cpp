//===- TestHostGpuAccesses.cpp - Print what each op does to buffers -------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// test-sdfg-host-gpu-accesses: for each host function, what each tagged op
// accesses on the host and through GPU work on which stream, which streams
// it syncs and which it orders after which, the stream it runs on
// (getStreamOf); then the function's summary (what its callers see) and the
// streams it leaves idle at its returns (CalleeExitSyncs).
//
//===----------------------------------------------------------------------===//

#include "TestAnalysisPasses.h"

#include "SDFGStream/Analysis/HostGpuAccesses.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::sdfg;

static void printAccess(const BufferAccess &access,
                        const BufferAliasAnalysis &aliases, raw_ostream &os,
                        AsmState &asmState) {
  os << (access.write ? "write " : "read ");
  llvm::interleave(
      access.roots, os,
      [&](unsigned root) { aliases.printRoot(root, os, asmState); }, "|");
}

static void printBits(uint8_t bits, raw_ostream &os) {
  if (!bits) {
    os << "-";
    return;
  }
  SmallVector<StringRef> names;
  for (auto [bit, name] : {std::pair<uint8_t, StringRef>{HostRead, "hr"},
                           {HostWrite, "hw"},
                           {GpuRead, "gr"},
                           {GpuWrite, "gw"}})
    if (bits & bit)
      names.push_back(name);
  llvm::interleave(names, os, "+");
}

static void printSummaryAccesses(const SummaryAccesses &summary,
                                 raw_ostream &os) {
  os << "args [";
  llvm::interleave(
      summary.arguments, os, [&](uint8_t bits) { printBits(bits, os); },
      ", ");
  os << "]";
  SmallVector<std::pair<std::string, uint8_t>> globals;
  for (auto [symbol, bits] : summary.globals) {
    std::string name;
    llvm::raw_string_ostream(name) << symbol;
    globals.push_back({name, bits});
  }
  llvm::sort(globals);
  for (auto &[name, bits] : globals) {
    os << " " << name << " ";
    printBits(bits, os);
  }
  os << " unknown ";
  printBits(summary.unknown, os);
}

namespace {
struct TestHostGpuAccessesPass
    : PassWrapper<TestHostGpuAccessesPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestHostGpuAccessesPass)
  StringRef getArgument() const final {
    return "test-sdfg-host-gpu-accesses";
  }
  StringRef getDescription() const final {
    return "Print the host and GPU accesses of tagged ops, and the summary "
           "and exit syncs of each function";
  }

  void runOnOperation() override {
    raw_ostream &os = llvm::errs();
    HostGpuAccesses accesses(getOperation());
    test::forEachHostFunction(getOperation(), [&](FunctionOpInterface fn) {
      AsmState asmState(fn);
      BufferAliasAnalysis &aliases = accesses.getAliases(fn);
      os << "function @" << SymbolTable::getSymbolName(fn).getValue() << "\n";
      walkHostCode(fn.getFunctionBody(), [&](Operation *op) {
        StringRef tag = test::getTag(op);
        if (tag.empty())
          return;
        OpAccesses opAccesses = accesses.getAccesses(op, fn);
        os << "  " << tag << ":";
        for (const BufferAccess &access : opAccesses.host) {
          os << " host ";
          printAccess(access, aliases, os, asmState);
          os << ";";
        }
        for (const StreamAccess &access : opAccesses.gpu) {
          os << " gpu ";
          access.stream.printAsOperand(os, asmState);
          os << " ";
          printAccess(access.access, aliases, os, asmState);
          os << ";";
        }
        if (!opAccesses.synced.empty()) {
          os << " synced";
          test::printValues(opAccesses.synced, os, asmState);
          os << ";";
        }
        if (!opAccesses.syncedAfter.empty()) {
          os << " synced after";
          test::printValues(opAccesses.syncedAfter, os, asmState);
          os << ";";
        }
        for (auto [waiting, waitedOn] : opAccesses.streamWaits) {
          os << " wait ";
          waiting.printAsOperand(os, asmState);
          os << " after ";
          waitedOn.printAsOperand(os, asmState);
          os << ";";
        }
        if (Value stream = getStreamOf(op, accesses.getSymbolTables())) {
          os << " on ";
          stream.printAsOperand(os, asmState);
        }
        os << "\n";
      });
      const ProgramSummary &summary = accesses.getSummary(fn);
      os << "  summary: ";
      printSummaryAccesses(summary, os);
      for (const auto &[index, other] : summary.otherStreams) {
        os << "; on stream arg " << index << ": ";
        printSummaryAccesses(other, os);
      }
      os << "\n";
      const CalleeExitSyncs &exit = accesses.getExitSyncs(fn);
      os << "  idle at exit:" << (exit.callStream ? " call stream" : "");
      for (unsigned index : exit.streamParameters)
        os << " arg " << index;
      os << "\n";
    });
  }
};
} // namespace

void test::registerTestHostGpuAccessesPass() {
  PassRegistration<TestHostGpuAccessesPass>();
}
