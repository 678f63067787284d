"""The seccomp filter of a bot: the system calls a bot never needs, refused with ``EPERM``.

Built with libseccomp (``libseccomp.so.2``, the library Docker, Flatpak and systemd use to
build theirs) through :mod:`ctypes`, and exported as a classic BPF program that bubblewrap
loads (``bwrap --seccomp FD``) just before it starts the bot host. libseccomp knows every
architecture's syscall numbers and writes the architecture check (a call made through another
ABI, e.g. 32-bit ``int 0x80`` on x86-64, kills the process), which a hand-written BPF program
would have to get right by itself. It is a deny list on top of what the namespaces, the
unprivileged uid and ``no_new_privs`` already forbid, after Docker's and Flatpak's: kernel
attack surface a game bot has no use for.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os

__all__ = ["DENIED", "filter_program", "seccomp_available"]

#: System calls refused to a bot (``EPERM``), with the reason.
DENIED = {
    # debugging or reading other processes
    "ptrace": "trace or inject into a process",
    "process_vm_readv": "read another process's memory",
    "process_vm_writev": "write another process's memory",
    "kcmp": "compare kernel objects of other processes",
    "pidfd_getfd": "steal a file descriptor from another process",
    # the mount view and the namespaces are the referee's
    "mount": "change the mount view",
    "umount2": "change the mount view",
    "pivot_root": "change the root",
    "chroot": "change the root",
    "move_mount": "change the mount view",
    "open_tree": "change the mount view",
    "fsopen": "mount a file system",
    "fsmount": "mount a file system",
    "fsconfig": "mount a file system",
    "fspick": "reconfigure a file system",
    "mount_setattr": "change mount flags",
    "unshare": "leave the bot's namespaces",
    "setns": "enter another namespace",
    "open_by_handle_at": "open files by handle, past the mount view",
    "name_to_handle_at": "open files by handle, past the mount view",
    # kernel interfaces with a long record of exploits
    "bpf": "load BPF programs",
    "perf_event_open": "performance counters",
    "userfaultfd": "stall the kernel on a page fault",
    "keyctl": "the kernel keyrings (not namespaced)",
    "add_key": "the kernel keyrings (not namespaced)",
    "request_key": "the kernel keyrings (not namespaced)",
    "io_uring_setup": "io_uring",
    "io_uring_enter": "io_uring",
    "io_uring_register": "io_uring",
    "lookup_dcookie": "kernel profiling",
    # the machine's own administration
    "kexec_load": "load a new kernel",
    "kexec_file_load": "load a new kernel",
    "init_module": "load a kernel module",
    "finit_module": "load a kernel module",
    "delete_module": "unload a kernel module",
    "reboot": "reboot",
    "swapon": "swap",
    "swapoff": "swap",
    "acct": "process accounting",
    "quotactl": "disk quotas",
    "settimeofday": "set the clock",
    "clock_settime": "set the clock",
    "clock_adjtime": "set the clock",
    "adjtimex": "set the clock",
    "syslog": "the kernel log",
    "vhangup": "hang up the terminal",
}

_SCMP_ACT_ALLOW = 0x7FFF0000
_SCMP_ACT_ERRNO = 0x00050000
_EPERM = 1
_ENOSYS = 38


@functools.lru_cache(maxsize=1)
def _library() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("seccomp") or "libseccomp.so.2"
    try:
        lib = ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = (ctypes.c_uint32,)
    lib.seccomp_release.argtypes = (ctypes.c_void_p,)
    lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    lib.seccomp_rule_add.argtypes = (ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint)
    lib.seccomp_export_bpf.argtypes = (ctypes.c_void_p, ctypes.c_int)
    return lib


def seccomp_available() -> bool:
    """Whether libseccomp can be loaded here."""
    return _library() is not None


@functools.lru_cache(maxsize=1)
def filter_program() -> bytes:
    """The filter as a BPF program (``struct sock_filter`` array) for ``bwrap --seccomp``.
    Raises ``OSError`` when libseccomp is missing or refuses a rule."""
    lib = _library()
    if lib is None:
        raise OSError("libseccomp (libseccomp.so.2) is not installed")
    context = lib.seccomp_init(_SCMP_ACT_ALLOW)
    if not context:
        raise OSError("seccomp_init failed")
    try:
        for name in DENIED:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            if number < 0:  # a call this architecture does not have
                continue
            if lib.seccomp_rule_add(context, _SCMP_ACT_ERRNO | _EPERM, number, 0) != 0:
                raise OSError(f"seccomp_rule_add({name}) failed")
        # clone3's flags sit in memory a filter cannot read: ENOSYS makes the C library fall
        # back to clone(), whose flags the namespaces and the uid already hold (Docker does so).
        clone3 = lib.seccomp_syscall_resolve_name(b"clone3")
        if clone3 >= 0 and lib.seccomp_rule_add(context, _SCMP_ACT_ERRNO | _ENOSYS, clone3, 0) != 0:
            raise OSError("seccomp_rule_add(clone3) failed")
        memory = os.memfd_create("gamecore-seccomp", os.MFD_CLOEXEC)
        try:
            if lib.seccomp_export_bpf(context, memory) != 0:
                raise OSError("seccomp_export_bpf failed")
            size = os.lseek(memory, 0, os.SEEK_CUR)
            return os.pread(memory, size, 0)
        finally:
            os.close(memory)
    finally:
        lib.seccomp_release(context)
