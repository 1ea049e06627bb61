// The threaded wasm build's landing-pad context for C++ exceptions: a copy of
// Emscripten 3.1.6's libunwind Unwind-wasm.c, except that __wasm_lpad_context
// is a plain global instead of thread_local.
//
// Why: clang 14 (the compiler of Emscripten 3.1.6) writes a catch's landing-pad
// index and exception table into __wasm_lpad_context as a plain global, while
// the -pthread build of libunwind declares it thread_local. So the compiled
// code and the personality function looked at two different places, and no
// typed catch ever matched (catch (const glass::Error&) fell through to
// catch (...) or nowhere; tests/cpp/test_threads.cpp caught it). Defining every
// symbol of Unwind-wasm.o here keeps the linker from taking it from libunwind.
//
// What this costs: two threads unwinding at the same moment share the context.
// The kernels check their arguments on the calling thread before splitting the
// work, so a chunk that throws is a core bug already; the calling thread's own
// errors (every message a learner sees) do not race.
#include <stdint.h>
#include <unwind.h>

extern "C" {

_Unwind_Reason_Code __gxx_personality_wasm0(int version, _Unwind_Action actions, uint64_t exception_class,
                                            _Unwind_Exception* exception, _Unwind_Context* context);

struct _Unwind_LandingPadContext {
  uintptr_t lpad_index;  // input to the personality function: the landing pad
  uintptr_t lsda;        // and the exception table
  uintptr_t selector;    // its output: which catch clause matched
};

_Unwind_LandingPadContext __wasm_lpad_context;

_Unwind_Reason_Code _Unwind_CallPersonality(void* exception_ptr) {
  auto* exception = static_cast<_Unwind_Exception*>(exception_ptr);
  __wasm_lpad_context.selector = 0;
  // wasm has no two-phase unwinding: only the cleanup phase
  return __gxx_personality_wasm0(1, _UA_CLEANUP_PHASE, exception->exception_class, exception,
                                 reinterpret_cast<_Unwind_Context*>(&__wasm_lpad_context));
}

_Unwind_Reason_Code _Unwind_RaiseException(_Unwind_Exception* exception) { __builtin_wasm_throw(0, exception); }

void _Unwind_DeleteException(_Unwind_Exception* exception) {
  if (exception->exception_cleanup != nullptr) exception->exception_cleanup(_URC_FOREIGN_EXCEPTION_CAUGHT, exception);
}

void _Unwind_SetGR(_Unwind_Context* context, int index, _Unwind_Word value) {
  if (index == 1) reinterpret_cast<_Unwind_LandingPadContext*>(context)->selector = value;
}

// used as a 1-based index after subtracting 1
_Unwind_Word _Unwind_GetIP(_Unwind_Context* context) { return reinterpret_cast<_Unwind_LandingPadContext*>(context)->lpad_index + 2; }

void _Unwind_SetIP(_Unwind_Context*, _Unwind_Word) {}

void* _Unwind_GetLanguageSpecificData(_Unwind_Context* context) {
  return reinterpret_cast<void*>(reinterpret_cast<_Unwind_LandingPadContext*>(context)->lsda);
}

_Unwind_Ptr _Unwind_GetRegionStart(_Unwind_Context*) { return 0; }

}  // extern "C"
