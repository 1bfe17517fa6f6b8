// SPDX-License-Identifier: MIT
/* Placeholder: replaced by the CTF trace generator. */
int main(void)
{
	return 1;
}
