# SPDX-License-Identifier: MIT
# bash completion for tracekit: commands, then each command's long options (read from its
# --help, so the list never goes stale), values of the options that take a fixed set, and
# file names for everything else. Installed as share/bash-completion/completions/tracekit.

_tracekit_commands="print info record list convert ust-recover help"

_tracekit()
{
	local cur prev cmd opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$_tracekit_commands --help --version" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "$_tracekit_commands" -- "$cur"))
		return
	fi
	case $prev in
	--style) COMPREPLY=($(compgen -W "babeltrace trace-cmd perf json chrome csv tsv perf-decode perf-decode-compact" -- "$cur")); return ;;
	-t | --to)
		if [ "$cmd" = convert ]; then
			COMPREPLY=($(compgen -W "dat ctf json chrome csv tsv babeltrace trace-cmd" -- "$cur"))
			return
		fi
		;;
	--compression) COMPREPLY=($(compgen -W "none zstd zlib" -- "$cur")); return ;;
	--file-version) COMPREPLY=($(compgen -W "6 7" -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		opts=$("${COMP_WORDS[0]}" "$cmd" --help 2>/dev/null |
			sed -n 's/^ *\(-[A-Za-z0-9], \)\{0,1\}\(--[a-z][a-z0-9-]*=\{0,1\}\).*/\2/p')
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
	compopt -o filenames 2>/dev/null
}
complete -F _tracekit tracekit
