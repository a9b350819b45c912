# bash completion for cudaclimb (make install puts it in share/bash-completion/completions/cudaclimb)
# Commands, options, lesson ids from `cudaclimb list` and LESSON/STAGE from `cudaclimb show LESSON`.
_cudaclimb()
{
	local cur prev cmd i words_
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	local commands="list show run bench tune profile check device exercises try watch hint reset solution course report queue cache serve"
	local options="--lessons --work --course --gpu --arch --set --case --json --timeout --seed --reps --no-counters
		--roofline --hotspots --replay --runner --remote-worker --slurm-partition --slurm-gres --slurm-time
		--slurm-account --no-color --ascii --frames --sass --ptx --libraries --lessons-only --stage --pair --group --html --csv --prune --max
		--ncu --nsys --exec --verify --over --budget --strategy --plan --save --help --version"
	case $prev in
	--lessons|--work|--course|--replay|--html) COMPREPLY=($(compgen -f -- "$cur")); return ;;
	--arch) COMPREPLY=($(compgen -W "sm_80 sm_86 sm_89 sm_90 sm_100 sm_120" -- "$cur")); return ;;
	--runner) COMPREPLY=($(compgen -W "local ssh slurm" -- "$cur")); return ;;
	--strategy) COMPREPLY=($(compgen -W "grid random" -- "$cur")); return ;;
	--over|--budget) return ;;
	--gpu|--set|--case|--timeout|--seed|--reps|--frames|--stage|--pair|--group|--remote-worker|--slurm-*|--max) return ;;
	esac
	if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$options" -- "$cur")); return; fi
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
	--strategy) COMPREPLY=($(compgen -W "grid random" -- "$cur")); return ;;
	--over|--budget) return ;;
	--gpu|--set|--case|--timeout|--seed|--reps|--frames|--stage|--pair|--group|--remote-worker|--slurm-*|--max) return ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then COMPREPLY=($(compgen -W "$commands" -- "$cur")); return; fi
	local bin=${COMP_WORDS[0]}
	case $cmd in
	course) [[ $prev == course ]] && COMPREPLY=($(compgen -W "init" -- "$cur")) || COMPREPLY=($(compgen -d -- "$cur")) ;;
	report) COMPREPLY=($(compgen -d -- "$cur")) ;;
	cache) COMPREPLY=($(compgen -W "--prune --max" -- "$cur")) ;;
	queue) [[ $prev == queue ]] && COMPREPLY=($(compgen -W "init" -- "$cur")) ;;
	list|check|device) ;;
	*)
		if [[ $cur == */* ]]; then
			local lesson=${cur%%/*}
			local stages=$("$bin" show "$lesson" 2>/dev/null | sed -n 's/^[0-9][0-9]*\. \([A-Za-z0-9_.-]*\) - .*/\1/p')
			COMPREPLY=($(compgen -P "$lesson/" -W "baseline $stages" -- "${cur#*/}"))
		else
			# only ids made of the characters an id may have: compgen -W expands what it is given, and
			# a lesson tree is someone else's text ($(...) in a title once ran here)
			local lessons=$("$bin" list 2>/dev/null | awk '$1 ~ /^[A-Za-z0-9_.-]+$/ { print $1 }')
			COMPREPLY=($(compgen -W "$lessons" -S / -- "$cur"))
			[[ $cmd == show || $cmd == bench || $cmd == exercises ]] && COMPREPLY+=($(compgen -W "$lessons" -- "$cur"))
			compopt -o nospace 2>/dev/null
		fi ;;
	esac
}
complete -F _cudaclimb cudaclimb
