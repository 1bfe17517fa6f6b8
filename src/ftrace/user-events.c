// SPDX-License-Identifier: MIT
/*
 * user_events registration (user-events.h). The ioctl numbers and structures follow the
 * kernel's documented ABI (include/uapi/linux/user_events.h, Linux 6.4): DIAG_IOCSREG is
 * _IOWR('*', 0, struct user_reg *) and DIAG_IOCSUNREG _IOW('*', 2, struct user_unreg *), the
 * size in the number being a pointer's, and both structures are packed and start with their
 * own size, which is how the kernel tells versions apart.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../common/error.h"
#include "tracefs-priv.h"
#include "tracefs.h"
#include "user-events.h"

struct ue_reg {
	uint32_t size;
	uint8_t enable_bit;
	uint8_t enable_size;
	uint16_t flags;
	uint64_t enable_addr;
	uint64_t name_args;
	uint32_t write_index;
} __attribute__((packed));

struct ue_unreg {
	uint32_t size;
	uint8_t disable_bit;
	uint8_t reserved;
	uint16_t reserved2;
	uint64_t disable_addr;
} __attribute__((packed));

_Static_assert(sizeof(struct ue_reg) == 28, "struct user_reg of the kernel ABI");
_Static_assert(offsetof(struct ue_reg, write_index) == 24, "struct user_reg of the kernel ABI");
_Static_assert(sizeof(struct ue_unreg) == 16, "struct user_unreg of the kernel ABI");

#define UE_IOC_MAGIC  '*'
#define UE_IOCSREG    _IOWR(UE_IOC_MAGIC, 0, struct ue_reg *)
#define UE_IOCSDEL    _IOW(UE_IOC_MAGIC, 1, char *)
#define UE_IOCSUNREG  _IOW(UE_IOC_MAGIC, 2, struct ue_unreg *)
#define UE_DATA_FILE  "user_events_data"
#define UE_KERNEL_REQ "a kernel of 6.4 or later built with CONFIG_USER_EVENTS"

enum tk_status user_events_open(int *out)
{
	char dir[TRACEFS_PATH_MAX], path[TRACEFS_PATH_MAX + sizeof(UE_DATA_FILE) + 1];
	int fd, err;

	*out = -1;
	if (!tracefs_mounted(dir, sizeof(dir)))
		return TK_FAIL(TK_ERR_NOTFOUND,
			       "Cannot open user_events: reason=tracefs is not mounted; mount it "
			       "with `mount -t tracefs nodev /sys/kernel/tracing` (user_events "
			       "needs " UE_KERNEL_REQ ")");
	snprintf(path, sizeof(path), "%s/" UE_DATA_FILE, dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		*out = fd;
		return TK_OK;
	}
	err = errno;
	if (err == ENOENT)
		return TK_FAIL(TK_ERR_NOTFOUND,
			       "Cannot open user_events: path=%s, errno=%s; this kernel has no "
			       "user_events (it needs " UE_KERNEL_REQ ")",
			       path, strerror(err));
	return TK_FAIL(TK_ERR_IO,
		       "Cannot open user_events: path=%s, errno=%s; writing user events needs "
		       "write access to that file (root, or a group tracefs grants it to)",
		       path, strerror(err));
}

enum tk_status user_events_register(int fd, const char *command, void *enable_addr,
				    unsigned int enable_size, uint8_t bit, uint32_t *write_index)
{
	struct ue_reg r;

	if ((enable_size != 4 && enable_size != 8) || bit >= 8 * enable_size ||
	    ((uintptr_t) enable_addr & (enable_size - 1)))
		return TK_FAIL(TK_ERR_INVAL,
			       "Cannot register user event: command=%s, reason=the enable word "
			       "must be 4 or 8 bytes, naturally aligned",
			       command);
	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.enable_bit = bit;
	r.enable_size = (uint8_t) enable_size;
	r.enable_addr = (uint64_t) (uintptr_t) enable_addr;
	r.name_args = (uint64_t) (uintptr_t) command;
	if (ioctl(fd, UE_IOCSREG, &r) < 0) {
		int err = errno;

		return TK_FAIL(err == EADDRINUSE || err == EINVAL ? TK_ERR_INVAL : TK_ERR_IO,
			       "Cannot register user event: command=%s, errno=%s%s", command,
			       strerror(err),
			       err == EADDRINUSE ? "; the name is registered with other fields"
						 : "");
	}
	*write_index = r.write_index;
	return TK_OK;
}

enum tk_status user_events_unregister(int fd, void *enable_addr, uint8_t bit)
{
	struct ue_unreg u;

	memset(&u, 0, sizeof(u));
	u.size = sizeof(u);
	u.disable_bit = bit;
	u.disable_addr = (uint64_t) (uintptr_t) enable_addr;
	if (ioctl(fd, UE_IOCSUNREG, &u) < 0)
		return TK_FAIL(TK_ERR_IO, "Cannot unregister user event: errno=%s",
			       strerror(errno));
	return TK_OK;
}

enum tk_status user_events_delete(int fd, const char *name)
{
	int err;

	if (ioctl(fd, UE_IOCSDEL, name) == 0)
		return TK_OK;
	err = errno;
	return TK_FAIL(err == ENOENT ? TK_ERR_NOTFOUND : TK_ERR_IO,
		       "Cannot delete user event: name=%s, errno=%s", name, strerror(err));
}
