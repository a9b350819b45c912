/* cli: the headless commands (list, show, run, bench, check, device) and argument parsing. */
#ifndef CC_CLI_H
#define CC_CLI_H

/* Exit codes, also listed by --help. */
enum {
	EXIT_OK = 0,        /* everything ran and was right */
	EXIT_FAILED = 1,    /* a stage was wrong, faulted, hung, crashed or did not compile */
	EXIT_USAGE = 2,     /* bad command line (unknown option, stage, setting, or a refused setting) */
	EXIT_NO_GPU = 3,    /* a command that needs a GPU found none */
	EXIT_LESSONS = 4,   /* a lesson file has errors (the others were still used) */
	EXIT_RUNNER = 5,    /* the runner failed: ssh host unreachable, no srun, Slurm refused (RUN_RUNNER_ERROR) */
};

/* Parses argv and runs the command (or the TUI when there is none). Returns the exit code. */
int cli_main(int argc, char **argv);
#endif
