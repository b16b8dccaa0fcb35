-- A driver call nested in the runtime call it serves, with the same globalTid and
-- correlationId: the kernel of correlationId 3 then joins two calls, as an SQL join pairs them.
INSERT INTO StringIds(id, value) VALUES (1000, 'cuLaunchKernel');
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME
	(start, end, eventClass, globalTid, correlationId, nameId, returnValue, callchainId)
	SELECT start + 100, end - 100, eventClass, globalTid, correlationId, 1000, returnValue,
	       callchainId
	FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId = 3;
