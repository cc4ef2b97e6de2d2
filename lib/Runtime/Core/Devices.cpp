//===- Devices.cpp - Default device, stream order and devices ---*- C++ -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// What the host API asks about streams and devices: the default device of
// work on a thread without a context (mgpuSetDefaultDevice), one stream
// ordered after another by an event (sdfgrtStreamWaitStream), the device
// of a stream, and whether a pointer argument is memory of the stream's
// device (sdfgrtCheckDevicePointer, which check-device emits).
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Runtime/SDFGRuntime.h"

#include "Core/Devices.h"
#include "Core/Events.h"

#include <mutex>

using namespace sdfgrt;

//===----------------------------------------------------------------------===//
// C ABI: the default device
//===----------------------------------------------------------------------===//

void mgpuSetDefaultDevice(int32_t device) {
  const Symbols *symbols = startOperation() ? vendorSymbols() : nullptr;
  if (!symbols)
    return;
  if (!vendor::setDefaultDevice(*symbols, device))
    return;
  VendorLibrary &lib = vendorLibrary();
  std::lock_guard<std::mutex> lock(lib.mutex);
  if (lib.defaultDevice != device) {
    lib.defaultDevice = device;
    lib.defaultContext = kNoContext;
  }
}

//===----------------------------------------------------------------------===//
// Stream ordering
//===----------------------------------------------------------------------===//

bool sdfgrt::orderAfter(const Symbols &symbols, void *waitedOn,
                        void *const *waiting, size_t count) {
  vendor::Event event{};
  ContextRef eventContext{};
  bool acquired = false, ordered = false;
  inStreamContext(symbols, waitedOn,
                  [&](const Symbols &symbols, Stream s, Context context) {
                    acquired = identify(symbols, context, eventContext) &&
                               acquireEvent(symbols, eventContext,
                                            EventKind::Ordering, event);
                    ordered =
                        acquired && SDFGRT_CALL(symbols, EventRecord, event, s);
                  });
  // Each wait takes the event's state when it is enqueued: the event can be
  // reused at once.
  for (size_t i = 0; ordered && i < count; ++i) {
    ordered = false;
    inStreamContext(
        symbols, waiting[i], [&](const Symbols &symbols, Stream s, Context) {
          ordered = SDFGRT_CALL(symbols, StreamWaitEvent, s, event, 0);
        });
  }
  if (acquired)
    releaseEvent(symbols, eventContext, EventKind::Ordering, event,
                 /*mayBePending=*/true);
  return ordered;
}

//===----------------------------------------------------------------------===//
// C ABI: stream ordering and devices (host API)
//===----------------------------------------------------------------------===//

int32_t sdfgrtStreamWaitStream(void *waiting, void *waitedOn) {
  if (waiting == waitedOn)
    return 0;
  bool started = startHostOperation();
  const Symbols *symbols = started ? vendorSymbols() : nullptr;
  if (symbols)
    orderAfter(*symbols, waitedOn, &waiting, 1);
  return operationStatus(started);
}

int32_t sdfgrtStreamDevice(void *stream, int32_t *device) {
  bool started = startHostOperation();
  const Symbols *symbols = started ? vendorSymbols() : nullptr;
  int32_t found = -1;
  if (symbols)
    inStreamContext(*symbols, stream,
                    [&](const Symbols &symbols, Stream, Context context) {
                      vendor::contextDevice(symbols, context, found);
                    });
  int32_t status = operationStatus(started);
  if (device)
    *device = status == 0 ? found : -1;
  return status;
}

void sdfgrtCheckDevicePointer(const void *pointer, void *stream,
                              int32_t argument) {
  if (!pointer)
    return;
  onStream(stream, [&](const Symbols &symbols, Stream, Context context) {
    int32_t streamDevice = -1, dataDevice = -1;
    bool isDevice = false;
    if (!vendor::contextDevice(symbols, context, streamDevice) ||
        !pointerDevice(symbols, pointer, isDevice, dataDevice))
      return;
    if (isDevice && dataDevice != streamDevice)
      recordFailure("argument %d is memory of device %d, but the stream "
                    "belongs to device %d",
                    argument, dataDevice, streamDevice);
  });
}
