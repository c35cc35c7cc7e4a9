#include "CSignalCleanup.h"

#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

// A fixed table, so the handler neither allocates nor locks. A slot is free (0), being written (1) or holds a path
// the handler may unlink (2); the handler reads only slots in state 2, whose path was written before the state was
// stored with release ordering.
enum { slotCount = 64, slotFree = 0, slotWriting = 1, slotRegistered = 2 };
static char paths[slotCount][PATH_MAX];
static _Atomic int states[slotCount];
static atomic_flag installed = ATOMIC_FLAG_INIT;

static void removeRegisteredAndRaise(int signalNumber) {
    for (int i = 0; i < slotCount; i++) {
        if (atomic_load_explicit(&states[i], memory_order_acquire) == slotRegistered) { unlink(paths[i]); }
    }
    // SA_RESETHAND restored the default action on entry; the raised signal is delivered when the handler returns.
    raise(signalNumber);
}

static void installHandlers(void) {
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction current;
        if (sigaction(signals[i], NULL, &current) != 0 || current.sa_handler != SIG_DFL) { continue; }
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = removeRegisteredAndRaise;
        action.sa_flags = SA_RESETHAND;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, NULL);
    }
}

int altimetry_cleanup_register(const char *path) {
    if (strlen(path) >= PATH_MAX) { return -1; }
    if (!atomic_flag_test_and_set(&installed)) { installHandlers(); }
    for (int i = 0; i < slotCount; i++) {
        int expected = slotFree;
        if (atomic_compare_exchange_strong(&states[i], &expected, slotWriting)) {
            strcpy(paths[i], path);
            atomic_store_explicit(&states[i], slotRegistered, memory_order_release);
            return i;
        }
    }
    return -1;
}

void altimetry_cleanup_unregister(int slot) {
    if (slot < 0 || slot >= slotCount) { return; }
    atomic_store_explicit(&states[slot], slotFree, memory_order_release);
}
