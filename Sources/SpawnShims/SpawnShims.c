#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "SpawnShims.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

int spawn_pipe(int fds[2], int nonBlockingRead) {
#if defined(__linux__)
  if (pipe2(fds, O_CLOEXEC) != 0) return -1;
#else
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
#endif
  if (nonBlockingRead) fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  return 0;
}

int spawn_socketpair(int fds[2]) {
#if defined(__linux__)
  return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
#else
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return -1;
  int on = 1;
  for (int i = 0; i < 2; i++) {
    fcntl(fds[i], F_SETFD, FD_CLOEXEC);
    setsockopt(fds[i], SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
  }
  return 0;
#endif
}

int spawn_send(int fd, const void *bytes, size_t count) {
  const char *next = bytes;
  while (count > 0) {
#if defined(__linux__)
    ssize_t sent = send(fd, next, count, MSG_NOSIGNAL);
#else
    ssize_t sent = send(fd, next, count, 0);
#endif
    if (sent < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    next += sent;
    count -= (size_t)sent;
  }
  return 0;
}

int spawn_pidfd_open(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
  return (int)syscall(SYS_pidfd_open, pid, 0);
#elif defined(__linux__)
  return (int)syscall(434, pid, 0);
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

int spawn_exit_status(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
int spawn_termination_signal(int status) { return WIFSIGNALED(status) ? WTERMSIG(status) : -1; }

/// In the child: reports `stage` and errno through `report` and ends. Async-signal-safe.
static void spawn_fail(int report, int stage) {
  int message[2] = {stage, errno};
  ssize_t written;
  do {
    written = write(report, message, sizeof message);
  } while (written < 0 && errno == EINTR);
  _exit(127);
}

/// In the child: moves `fd` (above 2, or negative for "keep the parent's") to `target`.
static int spawn_place(int fd, int target) {
  if (fd < 0) return 0;
  return dup2(fd, target) < 0 ? -1 : 0;
}

/// In the child: moves `*fd` above 2 if it is 0, 1 or 2.
static int spawn_raise(int *fd) {
  if (*fd < 0 || *fd > 2) return 0;
  int raised = fcntl(*fd, F_DUPFD_CLOEXEC, 3);
  if (raised < 0) return -1;
  *fd = raised;
  return 0;
}

pid_t spawn_child(
  const char *path, char *const argv[], char *const envp[], const char *directory,
  spawn_descriptors descriptors, int endsWithParentThread, int *failure, int *stage) {
  int report[2];
  if (spawn_pipe(report, 0) != 0) {
    *failure = errno;
    *stage = 1;
    return -1;
  }
  // Everything the child needs is computed before fork: after it, only async-signal-safe calls.
  struct rlimit limit;
  int highest = (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
                 limit.rlim_cur < 65536)
                  ? (int)limit.rlim_cur
                  : 65536;
  sigset_t all, old;
  sigfillset(&all);
  // No signal handler of the parent may run in the child between fork and exec.
  pthread_sigmask(SIG_SETMASK, &all, &old);
#if defined(__linux__)
  pid_t parent = getpid();
#endif
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
#if defined(__linux__)
    if (endsWithParentThread) {
      if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) spawn_fail(report[1], 4);
      // The thread may have ended between fork and prctl.
      if (getppid() != parent) _exit(127);
    }
#else
    (void)endsWithParentThread;
#endif
    if (directory != NULL && chdir(directory) != 0) spawn_fail(report[1], 2);
    // A descriptor to place that is itself 0, 1 or 2 (the parent had one of those closed) first moves
    // out of the way, so that placing one never closes another.
    if (spawn_raise(&descriptors.standardInput) != 0 || spawn_raise(&descriptors.standardOutput) != 0 ||
        spawn_raise(&descriptors.standardError) != 0)
      spawn_fail(report[1], 3);
    if (spawn_place(descriptors.standardInput, 0) != 0 || spawn_place(descriptors.standardOutput, 1) != 0 ||
        spawn_place(descriptors.standardError, 2) != 0)
      spawn_fail(report[1], 3);
    // Every signal back to its default action: the parent may ignore some (a dispatch signal source
    // sets SIG_IGN), and ignored signals survive exec.
    struct sigaction byDefault;
    byDefault.sa_handler = SIG_DFL;
    byDefault.sa_flags = 0;
    sigemptyset(&byDefault.sa_mask);
    for (int signal = 1; signal < NSIG; signal++) {
      if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &byDefault, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    if (pthread_sigmask(SIG_SETMASK, &none, NULL) != 0) spawn_fail(report[1], 4);
    // No descriptor but 0, 1, 2 and the report pipe (close-on-exec) reaches the program.
    int keep = report[1];
#if defined(__linux__) && defined(SYS_close_range)
    int closed = 0;
    if (keep > 3) closed = syscall(SYS_close_range, 3, keep - 1, 0) == 0;
    else closed = 1;
    if (closed) closed = syscall(SYS_close_range, keep + 1, ~0U, 0) == 0;
    if (!closed)
#endif
    {
      for (int fd = 3; fd < highest; fd++) {
        if (fd != keep) close(fd);
      }
    }
    execve(path, argv, envp);
    spawn_fail(report[1], 5);
  }
  int forkError = errno;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  close(report[1]);
  if (pid < 0) {
    close(report[0]);
    *failure = forkError;
    *stage = 1;
    return -1;
  }
  // Both sides set the group, so that it exists whichever runs first.
  setpgid(pid, pid);
  int message[2];
  ssize_t got;
  do {
    got = read(report[0], message, sizeof message);
  } while (got < 0 && errno == EINTR);
  close(report[0]);
  if (got == (ssize_t)sizeof message) {
    // The child failed before exec and has ended: reap it.
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    *stage = message[0];
    *failure = message[1];
    return -1;
  }
  return pid;
}
