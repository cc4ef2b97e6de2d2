// RUN: sdfg-opt %s -split-input-file -sdfg-insert-failure-exits | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -sdfg-insert-failure-exits -sdfg-insert-failure-exits | FileCheck %s

// Programs as convert-sdfg-to-func and convert-scf-to-cf leave them: after
// every op that can fail the call, a status check and a branch out.

#global = #gpu.address_space<global>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<4xi32, #global>) kernel {
      gpu.return
    }
  }
  func.func private @sdfgrtBeginCall()
  func.func private @sdfgrtEndCall() -> i32

  // One check after each run of GPU work (which the runtime skips once the
  // call failed), before the host code that follows it; the host buffer is
  // freed on the way out where it is live.
  // CHECK-LABEL: func.func @program
  // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: call @sdfgrtBeginCall() : () -> ()
  // CHECK: %[[T:.*]] = sdfg.stream_token
  // CHECK-NEXT: %[[D:.*]], %{{.*}} = gpu.alloc async [%[[T]]] () : memref<4xi32, #gpu.address_space<global>>
  // CHECK-NEXT: %[[S1:.*]] = call @sdfgrtCallStatus() : () -> i32
  // CHECK-NEXT: %[[F1:.*]] = arith.cmpi ne, %[[S1]], %[[ZERO]] : i32
  // CHECK-NEXT: cf.cond_br %[[F1]] weights([1, 2047]), ^[[EXIT:.*]], ^[[B1:.*]]
  // CHECK-NEXT: ^[[B1]]:
  // CHECK-NEXT: %[[H:.*]] = memref.alloc() : memref<4xi32>
  // CHECK-NEXT: gpu.launch_func async [%[[T]]] @kernels::@k
  // CHECK-SAME: args(%[[D]] : memref<4xi32, #gpu.address_space<global>>)
  // CHECK-NEXT: gpu.memcpy async [%[[T]]] %[[H]], %[[D]]
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: call @sdfgrtCallStatus()
  // CHECK-NEXT: arith.cmpi
  // CHECK-NEXT: cf.cond_br %{{.*}} weights([1, 2047]), ^[[FREE:.*]], ^[[B2:.*]]
  // CHECK-NEXT: ^[[B2]]:
  // CHECK-NEXT: memref.load %[[H]]
  // CHECK-NEXT: memref.store
  // CHECK-NEXT: memref.dealloc %[[H]]
  // After its free, the buffer is not freed again.
  // CHECK-NEXT: gpu.dealloc async [%[[T]]] %[[D]]
  // CHECK-NEXT: call @sdfgrtCallStatus()
  // CHECK-NEXT: arith.cmpi
  // CHECK-NEXT: cf.cond_br %{{.*}} weights([1, 2047]), ^[[EXIT]], ^[[B3:.*]]
  // CHECK-NEXT: ^[[B3]]:
  // CHECK-NEXT: %[[END:.*]] = call @sdfgrtEndCall() : () -> i32
  // CHECK-NEXT: return %[[END]] : i32
  // CHECK-NEXT: ^[[FREE]]:
  // CHECK-NEXT: memref.dealloc %[[H]] : memref<4xi32>
  // CHECK-NEXT: cf.br ^[[EXIT]]
  // CHECK-NEXT: ^[[EXIT]]:
  // CHECK-NEXT: %[[FAILED:.*]] = call @sdfgrtEndCall() : () -> i32
  // CHECK-NEXT: return %[[FAILED]] : i32
  // CHECK-NEXT: }
  func.func @program(%out: memref<i32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> i32
      attributes {sdfg.program} {
    call @sdfgrtBeginCall() : () -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = sdfg.stream_token %s
    %d, %t1 = gpu.alloc async [%t] () : memref<4xi32, #global>
    %h = memref.alloc() : memref<4xi32>
    %t2 = gpu.launch_func async [%t] @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%d : memref<4xi32, #global>)
    %t3 = gpu.memcpy async [%t] %h, %d : memref<4xi32>, memref<4xi32, #global>
    sdfg.sync %s
    %v = memref.load %h[%c0] : memref<4xi32>
    memref.store %v, %out[] : memref<i32>
    memref.dealloc %h : memref<4xi32>
    %t4 = gpu.dealloc async [%t] %d : memref<4xi32, #global>
    %status = call @sdfgrtEndCall() : () -> i32
    return %status : i32
  }
}

// -----

// A helper that can fail returns poison; its caller checks after the call.
// Host-only functions are left alone; a region op is checked after it.

#global = #gpu.address_space<global>
module attributes {gpu.container_module} {
  func.func private @sdfgrtBeginCall()
  func.func private @sdfgrtEndCall() -> i32

  // CHECK-LABEL: func.func private @helper
  // CHECK: gpu.memset async
  // CHECK-NEXT: call @sdfgrtCallStatus()
  // CHECK: cf.cond_br %{{.*}} weights([1, 2047]), ^[[EXIT:.*]], ^[[GO:.*]]
  // CHECK-NEXT: ^[[GO]]:
  // CHECK-NEXT: %[[R:.*]] = arith.constant 1.0
  // CHECK-NEXT: return %[[R]] : f32
  // CHECK-NEXT: ^[[EXIT]]:
  // CHECK-NEXT: %[[P:.*]] = ub.poison : f32
  // CHECK-NEXT: return %[[P]] : f32
  func.func private @helper(%d: memref<4xi32, #global>, %s: !sdfg.stream) -> f32 {
    %zero = arith.constant 0 : i32
    %t = sdfg.stream_token %s
    %t1 = gpu.memset async [%t] %d, %zero : memref<4xi32, #global>, i32
    %r = arith.constant 1.0 : f32
    return %r : f32
  }

  // A public function that returns a value and opens its calls itself
  // (convert-sdfg-to-func) closes them on its failure exit too, which frees
  // what the failed call took.
  // CHECK-LABEL: func.func @opens_its_calls
  // CHECK: call @sdfgrtBeginCall()
  // CHECK: gpu.memset async
  // CHECK-NEXT: call @sdfgrtCallStatus()
  // CHECK: cf.cond_br %{{.*}} weights([1, 2047]), ^[[EXIT:.*]], ^[[GO:.*]]
  // CHECK-NEXT: ^[[GO]]:
  // CHECK: call @sdfgrtEndCall()
  // CHECK-NEXT: return
  // CHECK-NEXT: ^[[EXIT]]:
  // CHECK-NEXT: call @sdfgrtEndCall()
  // CHECK-NEXT: %[[P:.*]] = ub.poison : f32
  // CHECK-NEXT: return %[[P]] : f32
  func.func @opens_its_calls(%d: memref<4xi32, #global>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> f32 {
    %zero = arith.constant 0 : i32
    call @sdfgrtBeginCall() : () -> ()
    %slot = sdfg.init_streams %s -> !sdfg.stream
    %t = sdfg.stream_token %slot
    %t1 = gpu.memset async [%t] %d, %zero : memref<4xi32, #global>, i32
    %r = arith.constant 1.0 : f32
    %status = call @sdfgrtEndCall() : () -> i32
    return %r : f32
  }

  // CHECK-LABEL: func.func private @host_only
  // CHECK-NOT: sdfgrtCallStatus
  // CHECK: return
  func.func private @host_only(%x: f32) -> f32 {
    %y = arith.addf %x, %x : f32
    return %y : f32
  }

  // CHECK-LABEL: func.func @caller
  // CHECK: call @helper
  // CHECK-NEXT: call @sdfgrtCallStatus()
  // CHECK: cf.cond_br
  // CHECK: call @host_only
  // CHECK-NEXT: memref.alloca_scope
  // CHECK-NEXT: sdfg.sync
  // CHECK-NEXT: }
  // CHECK-NEXT: call @sdfgrtCallStatus()
  func.func @caller(%d: memref<4xi32, #global>, %out: memref<f32>,
                    %s: !sdfg.stream {sdfg.external_stream = "s"}) -> i32
      attributes {sdfg.program} {
    call @sdfgrtBeginCall() : () -> ()
    %r = call @helper(%d, %s) : (memref<4xi32, #global>, !sdfg.stream) -> f32
    %q = call @host_only(%r) : (f32) -> f32
    memref.alloca_scope {
      sdfg.sync %s
    }
    memref.store %q, %out[] : memref<f32>
    %status = call @sdfgrtEndCall() : () -> i32
    return %status : i32
  }
  // CHECK: func.func private @sdfgrtCallStatus() -> i32
}

// -----

// A host buffer freed on one path only, one handed on through a branch and
// one registered with the GPU are not freed on the way out; one allocated in
// a loop is freed only where the current iteration has not freed it.

#global = #gpu.address_space<global>
module attributes {gpu.container_module} {
  func.func private @sdfgrtBeginCall()
  func.func private @sdfgrtEndCall() -> i32

  // CHECK-LABEL: func.func @ownership
  // CHECK: %[[A:.*]] = memref.alloc() : memref<4xi32>
  // CHECK-NEXT: %[[R:.*]] = memref.alloc() : memref<4xi32>
  // CHECK-NEXT: %[[REGISTERED:.*]] = memref.cast %[[R]]
  // CHECK-NEXT: gpu.host_register %[[REGISTERED]]
  // CHECK: cf.cond_br %{{.*}} weights([1, 2047]), ^[[FREE_A:.*]], ^{{.*}}
  // CHECK: sdfg.sync
  // CHECK: cf.cond_br %{{.*}} weights([1, 2047]), ^[[EXIT:.*]], ^{{.*}}
  // CHECK: %[[L:.*]] = memref.alloc() : memref<4xi32>
  // CHECK-NEXT: sdfg.sync
  // CHECK: cf.cond_br %{{.*}} weights([1, 2047]), ^[[FREE_L:.*]], ^{{.*}}
  // CHECK: memref.dealloc %[[L]]
  // CHECK-NEXT: sdfg.sync
  // CHECK: cf.cond_br %{{.*}} weights([1, 2047]), ^[[EXIT]], ^{{.*}}
  // CHECK: ^[[FREE_A]]:
  // CHECK-NEXT: memref.dealloc %[[A]]
  // CHECK-NEXT: cf.br ^[[EXIT]]
  // CHECK-NEXT: ^[[FREE_L]]:
  // CHECK-NEXT: memref.dealloc %[[L]]
  // CHECK-NEXT: cf.br ^[[EXIT]]
  // CHECK-NEXT: ^[[EXIT]]:
  // CHECK-NOT: memref.dealloc
  // CHECK: return
  func.func @ownership(%c: i1, %n: index, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> i32
      attributes {sdfg.program} {
    call @sdfgrtBeginCall() : () -> ()
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = sdfg.stream_token %s
    %a = memref.alloc() : memref<4xi32>
    %r = memref.alloc() : memref<4xi32>
    %u = memref.cast %r : memref<4xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    cf.cond_br %c, ^free, ^keep
  ^free:
    memref.dealloc %a : memref<4xi32>
    cf.br ^join
  ^keep:
    cf.br ^join
  ^join:
    sdfg.sync %s
    cf.br ^head(%c0 : index)
  ^head(%i: index):
    %more = arith.cmpi slt, %i, %n : index
    cf.cond_br %more, ^body, ^done
  ^body:
    %l = memref.alloc() : memref<4xi32>
    sdfg.sync %s
    memref.dealloc %l : memref<4xi32>
    sdfg.sync %s
    %next = arith.addi %i, %c1 : index
    cf.br ^head(%next : index)
  ^done:
    %status = call @sdfgrtEndCall() : () -> i32
    return %status : i32
  }
}

// -----

// Forking concurrent slots can fail (the runtime records it): the host code
// after it runs only if the fork succeeded.
module attributes {gpu.container_module} {
  func.func private @sdfgrtBeginCall()
  func.func private @sdfgrtEndCall() -> i32
  // CHECK-LABEL: func.func @forks
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK: sdfg.init_streams %{{.*}} concurrent
  // CHECK-NEXT: %[[S:.*]] = call @sdfgrtCallStatus() : () -> i32
  // CHECK-NEXT: %[[F:.*]] = arith.cmpi ne, %[[S]], %[[ZERO]] : i32
  // CHECK-NEXT: cf.cond_br %[[F]] weights([1, 2047]), ^[[EXIT:.*]], ^[[B1:.*]]
  // CHECK-NEXT: ^[[B1]]:
  // CHECK-NEXT: memref.load
  // CHECK: ^[[EXIT]]:
  // CHECK-NEXT: %[[FAILED:.*]] = call @sdfgrtEndCall() : () -> i32
  // CHECK-NEXT: return %[[FAILED]] : i32
  func.func @forks(%n: memref<i32>, %s: !sdfg.stream {sdfg.external_stream = "s"}) -> i32
      attributes {sdfg.program, sdfg.num_streams = 2 : i64} {
    call @sdfgrtBeginCall() : () -> ()
    %slots:2 = sdfg.init_streams %s concurrent -> !sdfg.stream, !sdfg.stream
    %v = memref.load %n[] : memref<i32>
    sdfg.stream_wait %slots#0 after %slots#1
    %e = call @sdfgrtEndCall() : () -> i32
    return %e : i32
  }
}
