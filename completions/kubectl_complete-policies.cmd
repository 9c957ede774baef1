@echo off
rem Completion for `kubectl policies` on Windows (kubectl 1.26 or newer). Put this file
rem on PATH next to kubectl-policies.exe: kubectl runs it with the words typed after
rem `kubectl policies` (the last one being completed) and reads the candidates back.
kubectl-policies.exe __complete -- %*
