"""The seccomp filter of a bot: the system calls a bot never needs, refused with ``EPERM``.

Built with libseccomp (``libseccomp.so.2``, the library Docker, Flatpak and systemd use to
build theirs) through :mod:`ctypes`, and exported as a classic BPF program that bubblewrap
loads (``bwrap --seccomp FD``) just before it starts the bot host. libseccomp knows every
architecture's syscall numbers and writes the architecture check (a call made through another
ABI, e.g. 32-bit ``int 0x80`` on x86-64, kills the process), which a hand-written BPF program
would have to get right by itself. It is a deny list on top of what the namespaces, the
unprivileged uid and ``no_new_privs`` already forbid, after Docker's and Flatpak's: kernel
attack surface a game bot has no use for. Two rules look at arguments, as the container
runtimes' default profiles do: ``clone`` with any namespace flag (:data:`CLONE_NAMESPACE_FLAGS`:
a user namespace of its own would give the bot every capability over a network namespace of
its own, the usual way into netfilter exploits) and ``socket``/``socketpair`` of any family but
:data:`SOCKET_FAMILIES` (``AF_VSOCK`` reaches the hypervisor, ``AF_NETLINK``, ``AF_PACKET``,
``AF_ALG``... are kernel interfaces a network namespace does not close).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import os
import platform

__all__ = ["DENIED", "CLONE_NAMESPACE_FLAGS", "SOCKET_FAMILIES", "filter_program", "seccomp_available"]

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

#: ``clone`` flags that make a namespace, refused (``EPERM``) whatever else the call asks for
#: (``unshare`` and ``setns`` are refused outright; ``clone3`` answers ``ENOSYS``).
CLONE_NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
}
#: The only socket families a bot may open: Unix sockets and the loopback of its own network
#: namespace (every other family is refused with ``EAFNOSUPPORT``, what a kernel without it says).
SOCKET_FAMILIES = {"AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10}

_SCMP_ACT_ALLOW = 0x7FFF0000
_SCMP_ACT_ERRNO = 0x00050000
_EPERM = 1
_ENOSYS = 38
_EAFNOSUPPORT = 97
_SCMP_CMP_EQ = 4
_SCMP_CMP_GE = 5
_SCMP_CMP_MASKED_EQ = 7


class _ArgCompare(ctypes.Structure):
    """libseccomp's ``struct scmp_arg_cmp``: argument ``arg`` compared by ``op`` with ``a`` (and ``b``)."""

    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("a", ctypes.c_uint64), ("b", ctypes.c_uint64)]


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
    lib.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(_ArgCompare),
    )
    lib.seccomp_export_bpf.argtypes = (ctypes.c_void_p, ctypes.c_int)
    return lib


def seccomp_available() -> bool:
    """Whether libseccomp can be loaded here."""
    return _library() is not None


def _refuse_when(lib: ctypes.CDLL, context: int, call: str, errno: int, *compare: _ArgCompare) -> None:
    """Refuse ``call`` with ``errno`` when every comparison of its arguments holds."""
    number = lib.seccomp_syscall_resolve_name(call.encode())
    if number < 0:
        return
    array = (_ArgCompare * len(compare))(*compare)
    if lib.seccomp_rule_add_array(context, _SCMP_ACT_ERRNO | errno, number, len(compare), array) != 0:
        raise OSError(f"seccomp_rule_add({call}, {[(c.arg, c.op, c.a) for c in compare]}) failed")


def _add_argument_rules(lib: ctypes.CDLL, context: int) -> None:
    # clone's flags are its first argument, but its second on s390 (the kernel's CLONE_BACKWARDS2)
    flags = 1 if platform.machine().startswith("s390") else 0
    for bit in CLONE_NAMESPACE_FLAGS.values():
        _refuse_when(lib, context, "clone", _EPERM, _ArgCompare(flags, _SCMP_CMP_MASKED_EQ, bit, bit))
    # an allow list written as refusals: every family below, between and above the allowed ones
    # (the filter sees the whole 64-bit register, so a family with high bits set is above them all)
    allowed = sorted(SOCKET_FAMILIES.values())
    for call in ("socket", "socketpair"):
        for family in range(allowed[-1]):
            if family not in allowed:
                _refuse_when(lib, context, call, _EAFNOSUPPORT, _ArgCompare(0, _SCMP_CMP_EQ, family, 0))
        _refuse_when(lib, context, call, _EAFNOSUPPORT, _ArgCompare(0, _SCMP_CMP_GE, allowed[-1] + 1, 0))


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
        _add_argument_rules(lib, context)
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
