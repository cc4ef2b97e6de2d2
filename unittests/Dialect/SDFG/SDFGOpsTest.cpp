//===- SDFGOpsTest.cpp - Unit tests of the sdfg dialect's C++ API ---------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Dialect/SDFG/IR/SDFGOps.h"
#include "SDFGStream/Analysis/StreamQueries.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {
class SDFGOpsTest : public ::testing::Test {
protected:
  SDFGOpsTest() {
    context.loadDialect<SDFGDialect, func::FuncDialect>();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  MLIRContext context;
};
} // namespace

TEST_F(SDFGOpsTest, BuildsAVerifiedProgram) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto type = builder.getFunctionType(
      {MemRefType::get({16}, builder.getF32Type())}, {});
  auto program = SDFGOp::create(builder, loc, "p", type, ProgramTarget::GPU,
                                /*numStreams=*/2);
  Block *entry = program.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  ReturnOp::create(builder, loc);

  ASSERT_TRUE(succeeded(verify(*module)));
  EXPECT_TRUE(program.isGpuProgram());
  EXPECT_EQ(getNumStreamSlots(program), 2);
  EXPECT_FALSE(getExternalStreamArgIndex(program).has_value());
  EXPECT_FALSE(getInitStreamsOp(program));
}

TEST_F(SDFGOpsTest, SlotsOfOneInitAreOneStream) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    func.func @f(%a: !sdfg.stream, %s: !sdfg.stream {sdfg.external_stream = "s"})
        attributes {sdfg.num_streams = 3 : i64} {
      %slots:3 = sdfg.init_streams %s -> !sdfg.stream, !sdfg.stream, !sdfg.stream
      sdfg.sync %slots#0, %slots#2, %a
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  auto func = cast<FunctionOpInterface>(&module->getBody()->front());
  InitStreamsOp init = getInitStreamsOp(func);
  ASSERT_TRUE(init);
  EXPECT_EQ(getNumStreamSlots(func), 3);
  EXPECT_EQ(getExternalStreamArgIndex(func), 1u);
  EXPECT_EQ(getExternalStreamArgument(func), func.getArgument(1));
  EXPECT_TRUE(isSameStream(init.getSlots()[0], init.getSlots()[2]));
  EXPECT_TRUE(isSameStream(func.getArgument(0), func.getArgument(0)));
  EXPECT_FALSE(isSameStream(init.getSlots()[0], func.getArgument(0)));
  EXPECT_FALSE(isSameStream(func.getArgument(0), func.getArgument(1)));
}

TEST_F(SDFGOpsTest, SlotAttributeAndHostWork) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    sdfg.sdfg @p(%A: memref<4xf32, 1>, %v: f32) target(gpu, streams = 2) {
      gpu.memset %A, %v : memref<4xf32, 1>, f32 {sdfg.stream_slot = 1 : i64}
      %c = arith.constant 1 : index
      sdfg.return
    }
  )mlir");
  ASSERT_TRUE(module);
  auto program = cast<SDFGOp>(&module->getBody()->front());
  Block &entry = program.getBody().front();
  Operation *memset = &entry.front();
  Operation *constant = memset->getNextNode();
  EXPECT_EQ(getStreamSlot(memset), 1);
  EXPECT_EQ(getStreamSlot(constant), 0);
  EXPECT_TRUE(isHostGpuWork(memset));
  EXPECT_FALSE(isHostGpuWork(constant));
  EXPECT_FALSE(isHostGpuWork(entry.getTerminator()));
}

TEST_F(SDFGOpsTest, InvalidProgramIsRejectedNotCrashed) {
  // Parsing verifies; a GPU op in a CPU program must fail cleanly.
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostic = diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    sdfg.sdfg @p(%A: memref<4xf32, 1>, %v: f32) target(cpu) {
      gpu.memset %A, %v : memref<4xf32, 1>, f32
      sdfg.return
    }
  )mlir");
  EXPECT_FALSE(module);
  EXPECT_NE(diagnostic.find("is GPU work, but program @p targets the CPU"),
            std::string::npos)
      << diagnostic;
}
