/* compile_jail: see compile_jail.h. Landlock through its three system calls (libc has no wrappers);
 * the rights a ruleset handles depend on the kernel's ABI version, so those of newer ABIs are asked
 * for only where the kernel knows them. */
#include "compile_jail.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "util.h"

/* The ruleset's attributes as the kernel reads them: file-system rights (ABI 1), network rights (ABI 4)
 * and scopes (ABI 6). Our own copy: a system header may be older than the kernel. The kernel takes a
 * longer struct than it knows when the fields it does not know are zero. */
struct ll_ruleset_attr { unsigned long long handled_access_fs, handled_access_net, scoped; };
struct ll_path_beneath_attr { unsigned long long allowed_access; int parent_fd; } __attribute__((packed));
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

/* The file-system rights by ABI version: 1 has thirteen, 2 adds REFER, 3 TRUNCATE, 5 IOCTL_DEV. */
#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_ABI1 ((1ULL << 13) - 1)
#define FS_REFER (1ULL << 13)
#define FS_TRUNCATE (1ULL << 14)
#define FS_IOCTL_DEV (1ULL << 15)
#define FS_REMOVE_FILE (1ULL << 5)
#define FS_MAKE_REG (1ULL << 8)
#define FS_READ (FS_EXECUTE | FS_READ_FILE | FS_READ_DIR)
/* the cache's folder: files made, written under a temporary name, renamed in the folder, removed; no
 * running, no links, no FIFOs or devices */
#define FS_WRITE (FS_READ_FILE | FS_READ_DIR | FS_WRITE_FILE | FS_MAKE_REG | FS_REMOVE_FILE | FS_TRUNCATE)
#define FS_FILE_ONLY (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)   /* rights a rule on a file may hold */
#define NET_BIND_TCP (1ULL << 0)
#define NET_CONNECT_TCP (1ULL << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)

int compile_jail_abi(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
	return v > 0 ? (int)v : 0;
}

/* A rule: path and what is beneath it, with rights (of handled; a file gets only a file's rights).
 * 0, also when path does not exist; -1 when the kernel refused the rule. */
static int allow(int rs, const char *path, unsigned long long rights, unsigned long long handled)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) return 0;
	struct stat st;
	struct ll_path_beneath_attr a = { .allowed_access = rights & handled, .parent_fd = fd };
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) a.allowed_access &= FS_FILE_ONLY;
	long r = syscall(SYS_landlock_add_rule, rs, LL_RULE_PATH_BENEATH, &a, 0);
	int e = errno;
	close(fd);
	errno = e;
	return r == 0 ? 0 : -1;
}

int compile_jail_enter(const char *const *read, int nread, const char *const *write, int nwrite, char *why, size_t n)
{
	int abi = compile_jail_abi();
	if (abi <= 0) {
		strfmt(why, n, "this kernel has no Landlock (%s)", strerror(errno));
		return 1;
	}
	unsigned long long handled = FS_ABI1 | (abi >= 2 ? FS_REFER : 0) | (abi >= 3 ? FS_TRUNCATE : 0) | (abi >= 5 ? FS_IOCTL_DEV : 0);
	/* no TCP (a compile needs no network), and no abstract Unix sockets or signals beyond the jail */
	struct ll_ruleset_attr ra = { .handled_access_fs = handled, .handled_access_net = abi >= 4 ? NET_BIND_TCP | NET_CONNECT_TCP : 0,
	                              .scoped = abi >= 6 ? SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL : 0 };
	int rs = (int)syscall(SYS_landlock_create_ruleset, &ra, sizeof ra, 0);
	if (rs < 0) { strfmt(why, n, "landlock_create_ruleset: %s", strerror(errno)); return -1; }
	for (int i = 0; i < nread; i++)
		if (read[i] && allow(rs, read[i], FS_READ, handled)) { strfmt(why, n, "a rule for %s: %s", read[i], strerror(errno)); close(rs); return -1; }
	for (int i = 0; i < nwrite; i++)
		if (write[i] && allow(rs, write[i], FS_WRITE, handled)) { strfmt(why, n, "a rule for %s: %s", write[i], strerror(errno)); close(rs); return -1; }
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_landlock_restrict_self, rs, 0) != 0) {
		strfmt(why, n, "landlock_restrict_self: %s", strerror(errno));
		close(rs);
		return -1;
	}
	close(rs);
	return 0;
}
