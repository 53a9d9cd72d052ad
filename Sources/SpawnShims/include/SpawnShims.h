#ifndef SPAWN_SHIMS_H
#define SPAWN_SHIMS_H

#include <sys/types.h>

/// What the child does with one of its standard descriptors: keep the parent's, or take `fd`.
/// A negative `fd` keeps the parent's.
typedef struct {
  int standardInput;
  int standardOutput;
  int standardError;
} spawn_descriptors;

/// Starts `path` with `argv` and `envp` (both NULL-terminated) in a new process group of its own,
/// with every signal's default action, an empty signal mask, the descriptors of `descriptors` as
/// 0, 1 and 2 and no other descriptor open, in `directory` if it is not NULL.
///
/// On Linux, when `endsWithParentThread` is nonzero the child receives SIGKILL when the calling thread
/// ends (PR_SET_PDEATHSIG): call it from a thread that lives exactly as long as the child.
///
/// Returns the child's pid, or -1 with `*failure` set to the errno of what failed (`fork`, or in the
/// child `chdir`, `dup2` or `execve`, reported back through a close-on-exec pipe) and `*stage` to
/// 1 (fork or pipe), 2 (chdir), 3 (descriptors), 4 (signals) or 5 (exec).
pid_t spawn_child(
  const char *path, char *const argv[], char *const envp[], const char *directory,
  spawn_descriptors descriptors, int endsWithParentThread, int *failure, int *stage);

/// `pipe` whose two ends are close-on-exec (and, for `nonBlockingRead`, whose read end does not block).
int spawn_pipe(int fds[2], int nonBlockingRead);

/// A connected pair of close-on-exec stream sockets, for a child's standard input: writing to it
/// with ``spawn_send`` never raises SIGPIPE in the parent when the child has gone.
int spawn_socketpair(int fds[2]);

/// Writes all of `bytes` to socket `fd`, retrying on EINTR; 0, or -1 with errno set (EPIPE when the
/// other end is closed). Never raises SIGPIPE.
int spawn_send(int fd, const void *bytes, size_t count);

/// (Linux) A descriptor that becomes readable when process `pid` ends, whoever its parent is
/// (`pidfd_open`); -1 with errno set, ENOSYS elsewhere.
int spawn_pidfd_open(pid_t pid);

/// `WIFEXITED(status) ? WEXITSTATUS(status) : -1`.
int spawn_exit_status(int status);
/// `WIFSIGNALED(status) ? WTERMSIG(status) : -1`.
int spawn_termination_signal(int status);

#endif
